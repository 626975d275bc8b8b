import Foundation

/// What a directory entry is, which decides its section and row type.
public enum EntryKind: Int, CaseIterable, Sendable, Comparable {
    case folder, image, document, other, unreadable

    /// The section title.
    public var sectionTitle: String {
        switch self {
        case .folder: return tr("Folders")
        case .image: return tr("Images")
        case .document: return tr("Text and documents")
        case .other: return tr("Other files")
        case .unreadable: return tr("Could not read")
        }
    }

    /// The icon of entries of the kind.
    public var iconName: String {
        switch self {
        case .folder: return "folder-symbolic"
        case .image: return "image-x-generic-symbolic"
        case .document: return "x-office-document-symbolic"
        case .other: return "application-x-executable-symbolic"
        case .unreadable: return "dialog-warning-symbolic"
        }
    }

    /// What one entry of the kind is called.
    public var singularName: String {
        switch self {
        case .folder: return tr("Folder")
        case .image: return tr("Image")
        case .document: return tr("Document")
        case .other: return tr("File")
        case .unreadable: return tr("Unreadable")
        }
    }

    public static func < (lhs: EntryKind, rhs: EntryKind) -> Bool { lhs.rawValue < rhs.rawValue }

    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "tif", "tiff", "ico", "heic", "avif"]
    static let documentExtensions: Set<String> = [
        "txt", "md", "markdown", "rst", "pdf", "doc", "docx", "odt", "rtf", "html", "htm", "json", "xml", "csv",
        "tsv", "yaml", "yml", "toml", "ini", "log", "tex", "swift", "c", "h", "cpp", "py", "rs", "go", "js", "ts", "sh",
    ]

    /// The kind of a regular file named `name`.
    static func ofFile(named name: String) -> EntryKind {
        let fileExtension = (name as NSString).pathExtension.lowercased()
        if imageExtensions.contains(fileExtension) { return .image }
        if documentExtensions.contains(fileExtension) { return .document }
        return .other
    }
}

/// One entry of a directory, read with lstat (and stat for symbolic links).
public struct DirectoryEntry: Equatable, Sendable, Identifiable {
    /// The entry's identity: its path as the file system has it.
    public var id: [UInt8] { rawPath }
    /// The name as text (bytes that are not UTF-8 shown as "�").
    public var name: String
    /// The path as text, for showing.
    public var path: String
    /// The path as the file system has it (any bytes), for opening.
    public var rawPath: [UInt8]
    public var kind: EntryKind
    /// The size in bytes (files only).
    public var size: Int64?
    public var modified: Date?
    /// Where a symbolic link points.
    public var linkTarget: String?
    /// Why the entry could not be read, for `.unreadable` entries.
    public var problem: String?

    public init(name: String, path: String, rawPath: [UInt8]? = nil, kind: EntryKind, size: Int64? = nil, modified: Date? = nil, linkTarget: String? = nil, problem: String? = nil) {
        self.name = name
        self.path = path
        self.rawPath = rawPath ?? Array(path.utf8)
        self.kind = kind
        self.size = size
        self.modified = modified
        self.linkTarget = linkTarget
        self.problem = problem
    }
}
