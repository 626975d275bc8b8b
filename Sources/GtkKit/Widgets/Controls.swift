import CGtk

/// A text entry for searching, with a magnifier icon and a clear button (GtkSearchEntry).
@MainActor
public final class SearchEntry: Widget {
    /// Creates an empty search entry.
    public init() {
        super.init(gtk_search_entry_new()!)
    }

    /// The text typed.
    public var text: String {
        get { String(cString: gtk_editable_get_text(opaquePointer)) }
        set { gtk_editable_set_text(opaquePointer, newValue) }
    }

    /// Runs `action` when the text changed and the typing paused (`search-changed`).
    public func onSearchChanged(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(self, .searchChanged, action)
    }

    /// Sends what is typed while `widget` (a window, say) has the keyboard to this entry:
    /// typing anywhere searches.
    public func captureKeys(from widget: any GtkWidgetConvertible) {
        gtk_search_entry_set_key_capture_widget(opaquePointer, widget.gtkWidget)
    }
}

/// A spinning wheel, shown while something loads (GtkSpinner).
@MainActor
public final class Spinner: Widget {
    /// Creates a spinner, still and hidden.
    public init() {
        super.init(gtk_spinner_new()!)
        isVisible = false
    }

    /// Whether it spins, and is shown: set it while something loads.
    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(opaquePointer) != 0 }
        set {
            if newValue { gtk_spinner_start(opaquePointer) } else { gtk_spinner_stop(opaquePointer) }
            isVisible = newValue
        }
    }
}

/// A button that stays pressed until pressed again, or until another of its group is
/// (GtkToggleButton): a group of them chooses one of several views.
@MainActor
public final class ToggleButton: Widget {
    /// Creates a toggle button showing the icon `iconName`, in the group of `group` when
    /// given (then pressing one releases the others).
    public init(iconName: String, group: ToggleButton? = nil) {
        super.init(gtk_toggle_button_new()!)
        gtk_button_set_icon_name(gtkPointer(as: GtkButton.self), iconName)
        if let group { gtk_toggle_button_set_group(gtkPointer(as: GtkToggleButton.self), group.gtkPointer(as: GtkToggleButton.self)) }
    }

    /// Whether it is pressed.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(gtkPointer(as: GtkToggleButton.self)) != 0 }
        set { gtk_toggle_button_set_active(gtkPointer(as: GtkToggleButton.self), newValue ? 1 : 0) }
    }

    /// Runs `action` each time it is pressed or released.
    public func onToggled(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(self, .toggled, action)
    }
}
