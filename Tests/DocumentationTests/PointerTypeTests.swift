import Foundation
import Testing

/// The toolkit takes only GObjects where it owns or casts one: a pointer to something else
/// (a GError, a GValue) is refused when compiling, where it once compiled and failed at
/// run time, or not at all.
@Suite("GObject pointers, as the compiler sees them")
struct PointerTypeTests {
    private func errors(_ body: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        try TypedSignalTests.errors(body, "pointer-" + name, sourceLocation: sourceLocation)
    }

    @Test("Only pointers to GObject types are owned, cast or connected")
    func onlyGObjectPointers() throws {
        #expect(try errors("_ = ObjectReference(sinking: gtk_label_new(\"x\")!)", "widget") == nil)
        #expect(try errors("_ = ObjectReference(adopting: gtk_css_provider_new()!)", "css-provider") == nil)
        #expect(try errors("_ = Button(label: \"Go\").gtkPointer(as: GtkButton.self)", "cast") == nil)

        #expect(try errors("_ = ObjectReference(adopting: UnsafeMutablePointer<GError>.allocate(capacity: 1))", "error-refused") != nil)
        #expect(try errors("_ = Button(label: \"Go\").gtkPointer(as: GValue.self)", "value-cast-refused") != nil)
        #expect(try errors("""
            let value = UnsafeMutablePointer<GValue>.allocate(capacity: 1)
            Signal.connect(value, .named("notify")) { }
            """, "value-signal-refused") != nil)
    }
}
