import CGtk
import CGtkShims
import CGtkTestShims
import Testing

/// Counts `items-changed` emissions; released through the destroy notify.
private final class SpliceLog {
    var splices: [(UInt32, UInt32, UInt32)] = []
}

private nonisolated(unsafe) var releasedLogs = 0

@Suite("GTK 4 through CGtk and CGtkShims, in a real display")
@MainActor
struct CGtkShimsTests {
    init() {
        #expect(cgtk_shims_open_test_display() != 0, "GTK could not open a display: run the tests under xvfb-run")
    }

    @Test("The linked GTK is 4.8 or newer")
    func version() {
        #expect(gtk_get_major_version() == 4)
        #expect(gtk_get_minor_version() >= 8)
    }

    @Test("Type checks and casts tell list models from widgets")
    func typeChecks() throws {
        let list = UnsafeMutableRawPointer(try #require(gtk_string_list_new(nil)))
        defer { g_object_unref(list) }
        #expect(cgtk_shims_is_object(list) != 0)
        #expect(cgtk_shims_is_list_model(list) != 0)
        #expect(cgtk_shims_is_widget(list) == 0)
        #expect(cgtk_shims_object_type(list) == gtk_string_list_get_type())
        #expect(cgtk_shims_instance_is_a(list, cgtk_shims_object_get_type()) != 0)
        #expect(cgtk_shims_is_object(nil) == 0)

        let label = g_object_ref_sink(gtk_label_new("row"))
        defer { g_object_unref(label) }
        #expect(cgtk_shims_is_widget(label) != 0)
        #expect(cgtk_shims_widget(label) != nil)
        #expect(CGTK_SHIMS_INVALID_LIST_POSITION == UInt32.max)

        gtk_string_list_append(OpaquePointer(list), "a")
        gtk_string_list_append(OpaquePointer(list), "b")
        #expect(g_list_model_get_n_items(cgtk_shims_list_model(list)) == 2)
    }

    @Test("A signal handler gets GTK's items-changed and its data is released with the object")
    func signalConnectReleasesData() throws {
        let strings = try #require(gtk_string_list_new(nil))
        let list = UnsafeMutableRawPointer(strings)
        let log = SpliceLog()
        let before = releasedLogs
        let handler: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, position, removed, added, data in
            let log = Unmanaged<SpliceLog>.fromOpaque(data!).takeUnretainedValue()
            log.splices.append((position, removed, added))
        }
        let destroy: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            Unmanaged<SpliceLog>.fromOpaque(data!).release()
            releasedLogs += 1
        }
        let id = cgtk_shims_signal_connect(list, "items-changed", unsafeBitCast(handler, to: GCallback.self),
                                           Unmanaged.passRetained(log).toOpaque(), destroy)
        #expect(id > 0)

        gtk_string_list_append(strings, "first")
        gtk_string_list_splice(strings, 0, 1, nil)
        #expect(log.splices.map { [$0.0, $0.1, $0.2] } == [[0, 0, 1], [0, 1, 0]])

        g_object_unref(list)
        #expect(releasedLogs == before + 1)
    }
}
