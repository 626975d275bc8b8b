import Foundation
import Testing

/// A typed signal connects only to objects that have it, with a closure of its shape: what
/// the compiler refuses is checked by compiling it (with the documentation's compiler).
@Suite("Typed signals, as the compiler sees them")
struct TypedSignalTests {
    /// The compiler's errors for a program of `body` (nil when it compiles; a name without
    /// `-refused` that does not compile is an issue, with the errors).
    static func errors(_ body: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let compiler = try DocumentationCodeTests.compiler.get()
        let program = """
            import ListViewManager
            import CGtk

            @MainActor func connecting() {
            \(body)
            }
            """
        let errors = try compiler.errors(typeChecking: program, named: "checked-" + name)
        if let errors, !name.contains("-refused") { Issue.record("\(name) does not compile:\n\(errors)", sourceLocation: sourceLocation) }
        return errors
    }

    @Test("A signal connects to the objects of its type, and to no others")
    func signalsBelongToTheirObjects() throws {
        #expect(try Self.errors("Signal.connect(Button(label: \"Go\"), .clicked) { }", "button-clicked") == nil)
        #expect(try Self.errors("Signal.connect(ToggleButton(iconName: \"go-next\"), .toggled) { }", "toggle-toggled") == nil)
        #expect(try Self.errors("Signal.connect(SearchEntry(), .searchChanged) { }", "search-changed") == nil)
        #expect(try Self.errors("Signal.connect(ListViewManager(), .activatePosition) { position in _ = position + 1 }", "list-activate") == nil)
        #expect(try Self.errors("Signal.connect(Label(\"x\"), .map) { }", "widget-map") == nil)

        #expect(try Self.errors("Signal.connect(ListViewManager(), .clicked) { }", "list-clicked-refused") != nil, "a list view has no clicked")
        #expect(try Self.errors("Signal.connect(SearchEntry(), .clicked) { }", "entry-clicked-refused") != nil)
        #expect(try Self.errors("Signal.connect(Button(label: \"Go\"), .searchChanged) { }", "button-search-refused") != nil)
        #expect(try Self.errors("Signal.connect(GridViewManager(), .activatePosition) { position in _ = position + 1 }", "grid-activate") == nil)
        #expect(try Self.errors("Signal.connect(ColumnViewManager(), .activatePosition) { _ in }", "columns-activate") == nil)
        #expect(try Self.errors("Signal.connect(SectionedGridViewManager(), .activatePosition) { _ in }", "strips-activate-refused") != nil,
                "a sectioned grid's view activates strips, not rows")
    }

    @Test("A signal's handler has the signal's shape")
    func handlersHaveTheirSignalsShape() throws {
        #expect(try Self.errors("Signal.connect(Button(label: \"Go\"), .clicked) { position in print(position) }", "clicked-argument-refused") != nil)
        #expect(try Self.errors("let c: SignalConnection = Signal.connection(Button(label: \"Go\"), .clicked) { }; c.disconnect()", "connection") == nil)
    }

    @Test("A pointer's signals are named by the caller, and checked for their shape")
    func pointersNameTheirSignals() throws {
        #expect(try Self.errors("""
            let view = gtk_list_view_new(nil, nil)!
            let activated: @MainActor (UInt32) -> Void = { position in print(position) }
            Signal.connect(view, .named("activate"), activated)
            """, "pointer-named") == nil)
        #expect(try Self.errors("""
            let view = gtk_list_view_new(nil, nil)!
            Signal.connect(view, .clicked) { }
            """, "pointer-clicked-refused") != nil)
    }
}
