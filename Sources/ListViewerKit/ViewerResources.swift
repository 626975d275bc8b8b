import Foundation

/// Finds the viewer's resources (row templates, CSS, the sample catalog).
///
/// In order: `$LIST_VIEWER_RESOURCES`; `share/list-viewer` beside the running binary's
/// `bin` (the Meson install, however the binary was started); the source tree's
/// `Resources/` (for `swift run`).
public enum ViewerResources {
    public static let directory: URL = {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["LIST_VIEWER_RESOURCES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        // The binary itself, not argv[0]: started by name from PATH, argv[0] has no folder.
        let executable = URL(fileURLWithPath: (try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/list-viewer")
        if fileManager.fileExists(atPath: installed.appendingPathComponent("sample-catalog.json").path) {
            return installed
        }
        // For `swift run`; LIST_VIEWER_SOURCE_RESOURCES=none turns it off (the install check).
        if ProcessInfo.processInfo.environment["LIST_VIEWER_SOURCE_RESOURCES"] == "none" { return installed }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources").standardizedFileURL
    }()

    /// Where the translations are installed (`share/locale` beside `share/list-viewer`), or
    /// nil when the viewer runs from the source tree, whose `.po` files meson compiles.
    public static var localeDirectory: URL? {
        let locale = directory.deletingLastPathComponent().appendingPathComponent("locale")
        return directory.lastPathComponent == "list-viewer" && FileManager.default.fileExists(atPath: locale.path) ? locale : nil
    }

    /// The bundled sample catalog.
    public static var sampleCatalog: URL { directory.appendingPathComponent("sample-catalog.json") }

    /// The bundle row templates are loaded from.
    public static var bundle: Bundle { Bundle(path: directory.path) ?? .main }
}
