// What the documentation's Swift blocks use without declaring it: an app's models, rows,
// storages and functions. `DocumentationCodeTests` compiles this file as the module
// `DocumentationContext`, which every block imports; nothing here runs. A block's own
// declarations (its `Post`, its `PostRow`, its `storage`) take the place of these.
// `Row` here is GRDB's, and `ListRow` the library's: next to each other, neither needs
// qualifying.
import CGtk
import Foundation
import GRDB
import ListViewManager
import PostgresStorage

// MARK: Posts, the running example

/// A day posts are grouped by.
public struct Day: Hashable, Sendable {
    public let title: String
    public init(title: String) { self.title = title }
}

/// A post's author.
public struct Author: Equatable, Sendable {
    public let hasEmail: Bool
}

/// A post, equal by identity; also a database record.
public struct Post: Identifiable, Equatable, Sendable, FetchableRecord {
    public let id: Int
    public var title: String
    public var day = Day(title: "Today")
    public var author = Author(hasEmail: true)

    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    public init(row: Row) {
        id = row["id"]
        title = row["title"]
        day = Day(title: row["day"])
    }

    public static func == (lhs: Post, rhs: Post) -> Bool { lhs.id == rhs.id }
}

/// A row showing a post.
@MainActor
public final class PostRow: ListRow, ModelTransfer {
    private let title = Label()
    public required init() { super.init(); append(title) }
    public func update(with model: Post) { title.text = model.title }
}

@MainActor public let manager = ListViewManager()
@MainActor public let storage = MemoryStorage()
public let posts = [Post(id: 1, title: "Hello"), Post(id: 2, title: "GTK")]
public let todayPosts = posts

/// Prints each update of a storage.
public final class UpdatePrinter: StorageUpdating {
    public func storageDidPerformUpdate(_ update: StorageUpdate) { print(update) }
    public func storageNeedsReloading() { print("reload") }
}

@MainActor public let printer = UpdatePrinter()

// MARK: What a post's menu does

/// A folder posts can be moved to.
public struct Folder: Sendable {
    public let name: String
}

public let folders = [Folder(name: "Archive")]
public func open(_ indexPath: IndexPath) { print("open", indexPath) }
public func copyLink(_ post: Post) { print("link", post.id) }
public func email(_ post: Post) { print("email", post.id) }
public func star(_ post: Post) { print("star", post.id) }
public func archive(_ posts: [Post]) { print("archive", posts.count) }
public func move(_ indexPath: IndexPath, to folder: Folder) { print("move", indexPath, folder.name) }

// MARK: Grids and tables

/// A photo in a grid.
public struct Photo: Sendable {
    public let name: String
}

/// A day's photos, a section of a grid.
public struct PhotoDay: Sendable {
    public let title: String
    public let photos: [Photo]
}

public let photos = [Photo(name: "Harbour")]
public let days = [PhotoDay(title: "Monday", photos: photos)]
public func show(_ photo: Photo) { print("show", photo.name) }

/// Makes photos' thumbnails off the main thread.
public final class ThumbnailMaker: Sendable {
    public func start(_ photo: Photo) { print("start", photo.name) }
    public func stop(_ photo: Photo) { print("stop", photo.name) }
}

public let thumbnails = ThumbnailMaker()

/// A grid cell showing a photo.
@MainActor
public final class PhotoCell: ListRow, ModelTransfer {
    private let name = Label()
    public required init() { super.init(); append(name) }
    public func update(with model: Photo) { name.text = model.name }
}

/// A tile of a sectioned grid showing a photo.
public typealias PhotoTile = PhotoCell

/// A file in a table.
public struct FileEntry: Sendable {
    public let name: String
    public let size: Int
    public var sizeText: String { "\(size) bytes" }
}

public let entries = [FileEntry(name: "notes.txt", size: 120)]
public func showDetails(_ entry: FileEntry) { print("details", entry.name) }
public func openFile(_ entry: FileEntry) { print("open", entry.name) }

/// A table cell showing a file's kind.
@MainActor
public final class KindCell: ListRow, ModelTransfer {
    private let kind = Label()
    public required init() { super.init(); append(kind) }
    public func update(with model: FileEntry) { kind.text = model.name }
}

// MARK: Storages

/// A GListModel of GFileInfos.
@MainActor public let files = g_list_store_new(g_file_info_get_type())!

/// A file as a list shows it.
public struct ListedFile: Sendable {
    public let name: String
    public init(name: String) { self.name = name }
}

public let path = "/tmp/library.sqlite"

/// A book, read from a database.
public struct Book: FetchableRecord, Equatable, Sendable {
    public let title: String
    public init(row: Row) { title = row["title"] }
}

/// A row showing a book, a placeholder while its page is read.
@MainActor
public final class BookRow: ListRow, ModelTransfer {
    private let title = Label()
    public required init() { super.init(); append(title) }
    public func update(with model: PagedRow<Book>) { title.text = model.record?.title ?? "" }
}

/// Where an app shows a problem.
@MainActor
public final class Banner {
    public func show(_ message: String) { print(message) }
}

@MainActor public let banner = Banner()

// MARK: Trees

/// A topic of an outline (the trees article's example).
public struct Topic: Sendable {
    public let title: String
    public init(title: String) { self.title = title }
}

@MainActor public let tree = TreeStorage()
