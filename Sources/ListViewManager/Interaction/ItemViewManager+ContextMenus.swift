import Foundation
import ModelStorage

extension ItemViewManager {
    // MARK: Registering menus

    /// Gives the rows of `rowType` a context menu, opened by a right click, a long press,
    /// the Menu key or Shift+F10 on the row: `build` returns its entries (none: no menu).
    public func contextMenu<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ build: @escaping (T, T.ModelType, IndexPath) -> [MenuEntry]) {
        addMenuBuilder(.item, "contextMenu", build)
    }

    /// Adds entries to the context menu of every item of `modelType`, whatever row shows
    /// it (after the row type's own entries).
    public func contextMenu<Model>(model modelType: Model.Type, _ build: @escaping (Model, IndexPath) -> [MenuEntry]) {
        contextMenuBuilders.forItem.append(forModels(build))
    }

    /// Gives the header rows of `rowType` a context menu, opened as an item's is (on GTK
    /// 4.12 and later, also on the section headers GTK shows itself); the index path is the
    /// section's first item's, as in `configureHeader`, and so is the one its entries get.
    public func contextMenuHeader<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ build: @escaping (T, T.ModelType, IndexPath) -> [MenuEntry]) {
        addMenuBuilder(.header, "contextMenuHeader", build)
    }

    /// Gives the footer rows of `rowType` a context menu, as `contextMenuHeader` does headers.
    public func contextMenuFooter<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ build: @escaping (T, T.ModelType, IndexPath) -> [MenuEntry]) {
        addMenuBuilder(.footer, "contextMenuFooter", build)
    }

    /// Gives several selected items one menu acting on all of them: a right click (or the
    /// Menu key, or an entry's accelerator) on one of two or more selected items, all of
    /// type `modelType`, opens the menu `build` returns for their models and index paths,
    /// instead of the item's own. Its entries act on the items still there when one is
    /// chosen (`MenuEntry(_:for:_:)` gets their models and index paths then; `.delete`
    /// deletes those that can be deleted). When no selection menu has entries for the
    /// selected items, the item's own menu opens.
    ///
    /// ```swift
    /// manager.contextMenu(forSelection: Post.self) { posts, indexPaths in
    ///     [MenuEntry("Archive \(posts.count) posts", for: Post.self) { posts, _ in archive(posts) }, .delete]
    /// }
    /// ```
    public func contextMenu<Model>(forSelection modelType: Model.Type, _ build: @escaping ([Model], [IndexPath]) -> [MenuEntry]) {
        contextMenuBuilders.forSelection.append { models, indexPaths in
            let typed = models.compactMap { $0 as? Model }
            return typed.count == models.count ? build(typed, indexPaths) : nil
        }
    }

    private func addMenuBuilder<T: RowWidget & ModelTransfer>(_ kind: MappingKind, _ event: String, _ build: @escaping (T, T.ModelType, IndexPath) -> [MenuEntry]) {
        let mappings = registeredMappings(kind, rowType: ObjectIdentifier(T.self))
        guard !mappings.isEmpty else {
            anomalyHandler.report(.eventRegisteredForUnregisteredMapping(rowType: String(describing: T.self), kind: kind, event: event))
            return
        }
        for case let mapping as RowMapping<T> in mappings {
            mapping.contextMenu(build)
        }
    }

    // MARK: The menu shown

    /// Opens the context menu of the item at `indexPath` (its row must be on screen), as a
    /// right click on it does. Returns false when it has no row on screen or no entries.
    @discardableResult
    public func openContextMenu(at indexPath: IndexPath) -> Bool {
        openContextMenu(askedOn: .item(indexPath), at: nil)
    }

    /// The titles of the context menu shown now, or nil when none is shown: the titles of
    /// the entries that do something, in menu order (those in sections and submenus too).
    public var shownContextMenuTitles: [String]? { contextMenus.shownTitles }
}
