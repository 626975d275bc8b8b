import CGtk

/// Owns one reference to a GObject and gives it back (`g_object_unref`) when it goes. The
/// initialiser names where the reference comes from, as gtk-rs's `from_glib_full` and
/// `from_glib_none` do, so that each object is owned exactly once:
///
/// - `adopting`: the caller already owns the reference (transfer full), e.g. what
///   `g_simple_action_group_new` or `gtk_builder_new` return.
/// - `sinking`: a new widget, whose reference is floating: it is sunk and owned here.
/// - `retaining`: an object borrowed from its owner (transfer none): a reference of its own
///   is taken.
///
/// Held by a main-actor object, it is released on the main thread with its holder. Apps use
/// it for the GTK objects they make and call GTK on directly.
public final class ObjectReference<Pointer: GObjectPointer> {
    /// The object.
    public let pointer: Pointer

    /// Takes over the reference the caller owns (transfer full).
    public init(adopting pointer: Pointer) {
        self.pointer = pointer
    }

    /// Sinks the floating reference of a new object (a widget), or takes a reference when
    /// the object is not floating.
    public init(sinking pointer: Pointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer.rawPointer)
    }

    /// Takes a reference to an object the caller only borrows (transfer none).
    public init(retaining pointer: Pointer) {
        self.pointer = pointer
        g_object_ref(pointer.rawPointer)
    }

    deinit {
        g_object_unref(pointer.rawPointer)
    }
}

/// The pointer types GTK objects come in: typed (`UnsafeMutablePointer<GtkWidget>`, to an
/// instance struct with its GType, ``InstanceType``), opaque (`OpaquePointer`, for GTK's
/// opaque structs) and raw. A pointer to anything else (a `GError`, a `GValue`) is not one.
public protocol GObjectPointer {
    /// The pointer, untyped.
    var rawPointer: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectPointer where Pointee: InstanceType {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectPointer {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer: GObjectPointer {
    public var rawPointer: UnsafeMutableRawPointer { self }
}
