import Foundation

/// What `list-viewer` was asked to show.
public enum ViewerSource: Equatable, Sendable {
    /// The bundled sample catalog.
    case sample
    /// A catalog file.
    case catalog(path: String)
    /// A folder.
    case directory(path: String)
}

/// The command line of `list-viewer`.
public struct ViewerOptions: Equatable, Sendable {
    public var source: ViewerSource = .sample
    /// Where to write a screenshot once the content is loaded (then exit).
    public var screenshot: String?
    public var showsHelp = false

    public init(source: ViewerSource = .sample, screenshot: String? = nil, showsHelp: Bool = false) {
        self.source = source
        self.screenshot = screenshot
        self.showsHelp = showsHelp
    }

    public static let usage = """
    Usage: list-viewer [PATH] [--screenshot FILE.png]

      (no PATH)              show the bundled sample catalog
      PATH to a folder       browse it, grouped by kind; activate a folder to open it
      PATH to a .json file   show a catalog in the sample's format
      --screenshot FILE.png  write a picture of the window once loaded, then exit
      --help                 show this text
    """

    /// Why a command line was refused.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
        /// Whether the command line itself is wrong (the usage is shown, exit status 2),
        /// rather than what it names (exit status 1).
        public var isUsageError = true
    }

    /// Parses the arguments after the program name.
    /// - Throws: `Problem` for an unknown option, a missing value or a second path.
    public static func parse(_ arguments: [String]) throws -> ViewerOptions {
        var options = ViewerOptions()
        var path: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                options.showsHelp = true
            case "--screenshot":
                guard index + 1 < arguments.count else { throw Problem(description: "--screenshot needs a file name") }
                options.screenshot = arguments[index + 1]
                index += 1
            default:
                if argument.hasPrefix("-") { throw Problem(description: "unknown option \(argument)") }
                if path != nil { throw Problem(description: "only one path can be shown, got \(path!) and \(argument)") }
                path = argument
            }
            index += 1
        }
        if let path, !options.showsHelp {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Problem(description: "\(path): no such file or folder", isUsageError: false)
            }
            options.source = isDirectory.boolValue ? .directory(path: path) : .catalog(path: path)
        }
        return options
    }
}
