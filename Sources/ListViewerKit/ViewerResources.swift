import Foundation

/// Finds the viewer's resources (row templates, CSS, the sample catalog).
///
/// In order: `$LIST_VIEWER_RESOURCES`; `share/list-viewer` beside the installed binary's
/// `bin` (the Meson install); the source tree's `Resources/` (for `swift run`).
public enum ViewerResources {
    public static let directory: URL = {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["LIST_VIEWER_RESOURCES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/list-viewer")
        if fileManager.fileExists(atPath: installed.appendingPathComponent("sample-catalog.json").path) {
            return installed
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources").standardizedFileURL
    }()

    /// The bundled sample catalog.
    public static var sampleCatalog: URL { directory.appendingPathComponent("sample-catalog.json") }

    /// The bundle row templates are loaded from.
    public static var bundle: Bundle { Bundle(path: directory.path) ?? .main }
}
