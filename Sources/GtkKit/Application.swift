import CGtk
import CGtkShims
import Foundation

/// A GTK application: the thin entry point under which `Task { @MainActor in … }`,
/// `DispatchQueue.main.async` and `await` work.
///
/// ```swift
/// let app = Application(id: "org.example.Posts")
/// app.onActivate { app in
///     let window = ApplicationWindow(application: app, title: "Posts")
///     window.child = Label("Hello")
///     window.present()
/// }
/// exit(app.run())
/// ```
@MainActor
public final class Application {
    private let reference: ObjectReference<UnsafeMutablePointer<GtkApplication>>

    /// The GtkApplication.
    public var gtkApplication: UnsafeMutablePointer<GtkApplication> { reference.pointer }

    /// Creates an application with the reverse-DNS `id`.
    /// - Parameters:
    ///   - id: the application id, e.g. `org.example.App`.
    ///   - allowsMultipleInstances: when true, each run is its own process (GTK
    ///     otherwise hands a second launch to the running instance over D-Bus).
    public init(id: String, allowsMultipleInstances: Bool = false) {
        reference = ObjectReference(adopting: cgtk_shims_application_new(id, allowsMultipleInstances ? 1 : 0)!)
    }

    /// Quits the main loop (`run()` then returns).
    public func quit() {
        g_application_quit(gtkCast(gtkApplication, to: GApplication.self))
    }

    /// Runs `action` when the application is activated: where it makes its first window.
    ///
    /// `run()` starts GTK and the application, then calls `action`. An application that
    /// comes out of its activation without a window quits, so a window made later (in a
    /// `Task` started before `run()`, which runs only once the main loop turns) is one GTK
    /// refuses: "New application windows must be added after the GApplication::startup
    /// signal has been emitted".
    public func onActivate(_ action: @escaping @MainActor (Application) -> Void) {
        let activated: @MainActor () -> Void = { [unowned self] in action(self) }
        Signal.connect(self, .activate, activated)
    }

    /// Runs the main loop until the last window closes; returns the exit status.
    /// - Parameter arguments: the command line GApplication sees (by default only the
    ///   program name: an app parses its own arguments).
    public func run(arguments: [String] = [CommandLine.arguments.first ?? "app"]) -> Int32 {
        MainQueue.attachToGLib()
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            g_application_run(gtkCast(gtkApplication, to: GApplication.self), Int32(buffer.count), buffer.baseAddress)
        }
    }
}
