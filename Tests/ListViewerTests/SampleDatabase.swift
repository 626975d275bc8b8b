import Foundation
import GRDB

/// A small SQLite file the database tests open: a `fruit` table (and, when asked, a
/// second table) in a temporary folder, removed with `remove()`.
struct SampleDatabase {
    let folder: String
    let path: String

    /// Creates the file, named `name`; `extraSQL` runs after the fruit table is filled.
    init(name: String = "fruits.sqlite", extraSQL: String = "") throws {
        folder = NSTemporaryDirectory() + "list-viewer-db-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = folder + "/" + name
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE fruit (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL, photo BLOB);
                INSERT INTO fruit (id, name, category, price, photo) VALUES
                    (1, 'apple', 'pome', 1.5, x'010203'), (2, 'pear', 'pome', 2, NULL),
                    (3, 'cherry', 'stone', 4.25, NULL);
                """ + extraSQL)
        }
    }

    /// A connection of another program's kind: its own queue on the file.
    func otherConnection() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
