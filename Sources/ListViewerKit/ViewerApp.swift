import CGtk
import Foundation
import ListViewManager
import Synchronization

/// The `list-viewer` application.
@MainActor
public enum ViewerApp {
    /// The application id, as Resources/app-id spells it for the desktop entry, metainfo and
    /// icon (a test checks that the two agree).
    public nonisolated static let applicationID = "io.github.listviewmanager.ListViewer"

    /// Runs the viewer with `arguments` (the program name first); returns the exit status.
    /// Command-line problems are written to standard error with a non-zero status.
    public static func main(arguments: [String]) -> Int32 {
        main(rawArguments: arguments.map { Array($0.utf8) })
    }

    /// `main(arguments:)` for the arguments as the program received them, any bytes (a
    /// folder's name need not be UTF-8): see `ViewerOptions.parse(raw:)`.
    public static func main(rawArguments arguments: [[UInt8]]) -> Int32 {
        // The user's language for the messages printed before GTK starts (which sets it too).
        setlocale(LC_ALL, "")
        if let locale = ViewerResources.localeDirectory {
            TextDomain.library.bind(to: locale.path)
            tr.bind(to: locale.path)
        }
        let options: ViewerOptions
        do {
            options = try ViewerOptions.parse(raw: Array(arguments.dropFirst()))
        } catch let problem as ViewerOptions.Problem {
            writeToStandardError("list-viewer: \(problem)" + (problem.isUsageError ? "\n\(ViewerOptions.shortUsage)" : ""))
            return problem.isUsageError ? 2 : 1
        } catch {
            writeToStandardError("list-viewer: \(error)")
            return 1
        }
        if let text = options.printedText {
            print(text)
            return 0
        }
        let catalog: Catalog?
        switch options.source {
        case .sample:
            catalog = loadCatalog(ViewerResources.sampleCatalog.path)
            if catalog == nil { return 1 }
        case .catalog(let path):
            catalog = loadCatalog(path)
            if catalog == nil { return 1 }
        case .directory(let path):
            if let problem = DirectoryReader.check(raw: path) {
                writeToStandardError("list-viewer: \(problem)")
                return 1
            }
            catalog = nil
        case .database(let path, let table, let sectionBy):
            // Checked here, so that a wrong table or column is an exit status.
            do {
                _ = try DatabaseFile.open(path, table: table, sectionBy: sectionBy)
                // Written only once every option is known good.
                if options.installChangeLog { try DatabaseFile.installChangeLog(path, table: table) }
            } catch {
                writeToStandardError("list-viewer: \(error)")
                return 1
            }
            catalog = nil
        case .server(let address, let table, let sectionBy):
            let install = options.installChangeLog
            if let problem = waitForProblem({
                _ = try await ServerTable.inspect(address, table: table, sectionBy: sectionBy)
                if install { try await ServerTable.installChangeLog(address, table: table) }
            }) {
                writeToStandardError("list-viewer: \(problem)")
                return 1
            }
            catalog = nil
        }

        let application = Application(id: applicationID, allowsMultipleInstances: true)
        var windows: [ViewerWindow] = []
        var status: Int32 = 0
        application.onActivate { application in
            loadStyle()
            // After GTK's start, which sets the language's direction.
            if let direction = options.direction { Widget.defaultDirection = direction }
            let viewer = ViewerWindow(application: application)
            windows.append(viewer)
            if let screenshot = options.screenshot {
                viewer.onLoaded = {
                    viewer.onLoaded = {}
                    // A load that ended in an error is pictured (the banner says it) and fails.
                    if let problem = viewer.problem {
                        writeToStandardError("list-viewer: \(problem)")
                        status = 1
                    }
                    Screenshot.afterPaintedFrames(of: viewer.window, 3) {
                        if !Screenshot.savePNG(of: viewer.window, to: screenshot) {
                            writeToStandardError("list-viewer: " + tr("could not write %@", screenshot))
                            status = 1
                        }
                        application.quit()
                    }
                }
            }
            viewer.setViewMode(options.viewMode)
            viewer.present()
            if let catalog {
                viewer.show(catalog)
            } else if case .directory(let path) = options.source {
                viewer.openDirectory(raw: path)
            } else if case .database(let path, let table, let sectionBy) = options.source {
                viewer.openDatabase(path, table: table, sectionBy: sectionBy)
            } else if case .server(let address, let table, let sectionBy) = options.source {
                viewer.openServerTable(address, table: table, sectionBy: sectionBy)
            }
        }
        let result = application.run()
        withExtendedLifetime(windows) {}
        return status != 0 ? status : result
    }

    /// Runs `check` off the main thread and waits for it (before the application runs):
    /// the error it throws, or nil.
    private static func waitForProblem(_ check: @escaping @Sendable () async throws -> Void) -> Error? {
        let problem = Mutex<Error?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await check() } catch { problem.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        return problem.withLock { $0 }
    }

    private static func loadCatalog(_ path: String) -> Catalog? {
        do {
            return try CatalogLoader.load(path: path)
        } catch {
            writeToStandardError("list-viewer: \(error)")
            return nil
        }
    }

    /// Whether the stylesheet is loaded for the display.
    private static var styleLoaded = false

    /// Loads the viewer's stylesheet for the whole display, once (the app does when it
    /// starts; a program or test showing a `ViewerWindow` of its own calls it first).
    public static func loadStyle() {
        guard !styleLoaded else { return }
        styleLoaded = true
        let provider = ObjectReference(adopting: gtk_css_provider_new()!)
        gtk_css_provider_load_from_path(provider.pointer, ViewerResources.directory.appendingPathComponent("style.css").path)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(provider.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
