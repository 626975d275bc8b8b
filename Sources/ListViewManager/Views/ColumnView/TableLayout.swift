import Foundation

/// How the user arranged a table: its columns in the order shown, each one's width and
/// whether it is shown, and the column it is sorted by. A value an app stores (it is
/// `Codable`) and gives back to `ColumnViewManager.tableLayout` when the table is shown
/// again.
///
/// ```swift
/// manager.didChangeTableLayout = { layout in
///     UserDefaults.standard.set(try? JSONEncoder().encode(layout), forKey: "books.layout")
/// }
/// if let data = UserDefaults.standard.data(forKey: "books.layout"),
///    let layout = try? JSONDecoder().decode(TableLayout.self, from: data) {
///     manager.tableLayout = layout
/// }
/// ```
public struct TableLayout: Codable, Hashable, Sendable {
    /// One column as the user left it.
    public struct Column: Codable, Hashable, Sendable {
        /// The column's `TableColumn.id`.
        public var id: String
        /// The width the user dragged it to (or the app fixed), in pixels; nil for the width
        /// of its cells.
        public var width: Int?
        /// Whether the column is shown.
        public var isVisible: Bool

        /// A column of `id`, `width` wide (nil: its cells' width), shown or hidden.
        public init(id: String, width: Int? = nil, isVisible: Bool = true) {
            self.id = id
            self.width = width
            self.isVisible = isVisible
        }
    }

    /// The columns, in the order shown.
    public var columns: [Column]
    /// The id of the column the table is sorted by, if any.
    public var sortColumn: String?
    /// Whether the sort is ascending.
    public var sortAscending: Bool

    /// A layout of `columns`, sorted by `sortColumn` (nil: unsorted).
    public init(columns: [Column], sortColumn: String? = nil, sortAscending: Bool = true) {
        self.columns = columns
        self.sortColumn = sortColumn
        self.sortAscending = sortAscending
    }
}
