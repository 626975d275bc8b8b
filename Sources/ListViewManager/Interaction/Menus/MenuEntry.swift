import Foundation
import ModelStorage

/// One entry of a context menu: an action with a title, or a section or a submenu grouping
/// other entries. GTK shows the menu from a GMenu model, as a GtkPopoverMenu.
///
/// ```swift
/// manager.contextMenu(PostRow.self) { row, post, indexPath in
///     [
///         MenuEntry("Open", accelerator: "<Control>o") { indexPath in open(indexPath) },
///         .submenu("Move to", folders.map { folder in MenuEntry(folder.name) { move($0, to: folder) } }),
///         MenuEntry("Publish", isEnabled: !post.isPublished) { _ in publish(post) },
///         .section([.delete]),
///     ]
/// }
/// ```
public struct MenuEntry {
    /// What choosing an entry does. The menu acts on what it was opened for (an item, a
    /// header or footer, or the selected items), wherever the storage has moved it since.
    public enum Action {
        /// Runs the closure with the item's index path at the time of the choice: a header's
        /// or footer's section's first item's (item 0), and in a selection menu each selected
        /// item's in turn, the last first (so that the closure may remove its item).
        case perform(@MainActor (IndexPath) -> Void)
        /// Runs the closure once with the models and index paths, at the time of the choice,
        /// of every item the menu is for (one item, one header or footer, or the selected
        /// items, in order).
        case performOnItems(@MainActor ([Any], [IndexPath]) -> Void)
        /// Deletes the item (or the selected items) as the Delete key does (`canDelete`,
        /// `commitDelete`). Header and footer menus leave it out.
        case delete
    }

    /// What an entry is.
    public enum Content {
        /// An entry that does something when chosen.
        case action(Action)
        /// A group of entries set apart by separators, under its title if it has one.
        case section([MenuEntry])
        /// A submenu, opened from this entry.
        case submenu([MenuEntry])
    }

    /// How an entry looks.
    public enum Style: Sendable {
        /// As GTK shows any menu entry.
        case normal
        /// An entry that destroys or loses data: shown with the `destructive-action` style
        /// class (in the theme's error colour) and described as destructive to screen readers.
        case destructive
    }

    /// The entry's label (a section's title: empty when it has none).
    public let title: String
    /// An action, a section or a submenu.
    public private(set) var content: Content
    /// The name of the entry's icon in the icon theme. GTK 4's menus show an icon instead
    /// of the label in an icon section (`section(icons: true, _:)`); elsewhere
    /// they show the label only, as GNOME's guidelines ask.
    public var iconName: String?
    /// The keyboard shortcut of an action, in GTK's format (`"<Control>o"`,
    /// `"<Shift>Delete"`): shown in the menu, and pressed while the row has the keyboard
    /// focus (no menu open), it runs the entry for that row (for the selection when the row
    /// is one of several selected).
    public var accelerator: String?
    /// Whether the entry can be chosen; a disabled entry is shown greyed out.
    public var isEnabled: Bool
    /// How the entry looks.
    public var style: Style
    /// Whether a section shows its entries as a row of icon buttons (GTK's
    /// "horizontal-buttons" display hint).
    public let showsIcons: Bool

    /// The entry's action, or nil for a section or a submenu.
    public var action: Action? {
        if case .action(let action) = content { return action }
        return nil
    }

    private init(title: String, content: Content, iconName: String?, accelerator: String?, isEnabled: Bool, style: Style, showsIcons: Bool = false) {
        self.title = title
        self.content = content
        self.iconName = iconName
        self.accelerator = accelerator
        self.isEnabled = isEnabled
        self.style = style
        self.showsIcons = showsIcons
    }

    /// An entry titled `title` that runs `action` with the item's index path at the time of
    /// the choice (see `Action.perform`).
    public init(_ title: String, icon: String? = nil, accelerator: String? = nil, isEnabled: Bool = true, style: Style = .normal,
                _ action: @escaping @MainActor (IndexPath) -> Void) {
        self.init(title, icon: icon, accelerator: accelerator, isEnabled: isEnabled, style: style, action: .perform(action))
    }

    /// An entry titled `title` that runs `action` once with the models of type `Model` and
    /// the index paths, at the time of the choice, of the items the menu is for (see
    /// `Action.performOnItems`): made for `contextMenu(forSelection:)`.
    ///
    /// ```swift
    /// MenuEntry("Archive", for: Post.self) { posts, indexPaths in archive(posts) }
    /// ```
    public init<Model>(_ title: String, for modelType: Model.Type, icon: String? = nil, accelerator: String? = nil, isEnabled: Bool = true,
                       style: Style = .normal, _ action: @escaping @MainActor ([Model], [IndexPath]) -> Void) {
        self.init(title, icon: icon, accelerator: accelerator, isEnabled: isEnabled, style: style, action: .performOnItems { models, indexPaths in
            let typed = zip(models, indexPaths).compactMap { model, indexPath in (model as? Model).map { ($0, indexPath) } }
            action(typed.map(\.0), typed.map(\.1))
        })
    }

    /// An entry with an explicit action.
    public init(_ title: String, icon: String? = nil, accelerator: String? = nil, isEnabled: Bool = true, style: Style = .normal, action: Action) {
        self.init(title: title, content: .action(action), iconName: icon, accelerator: accelerator, isEnabled: isEnabled, style: style)
    }

    /// "Delete", in the destructive style: deletes the item as the Delete key does (shown
    /// only when the item can be deleted; in a selection menu, when one of them can).
    public static var delete: MenuEntry { delete(tr("Delete")) }

    /// A delete entry (see `delete`) titled `title`, with an icon and a shortcut if given.
    public static func delete(_ title: String, icon: String? = nil, accelerator: String? = nil) -> MenuEntry {
        MenuEntry(title, icon: icon, accelerator: accelerator, style: .destructive, action: .delete)
    }

    /// A section: `entries` set apart from the entries around them by separators; with
    /// `icons`, shown as a row of icon buttons (each entry needs an icon, and shows its title
    /// as a tooltip).
    public static func section(icons: Bool = false, _ entries: [MenuEntry]) -> MenuEntry {
        MenuEntry(title: "", content: .section(entries), iconName: nil, accelerator: nil, isEnabled: true, style: .normal, showsIcons: icons)
    }

    /// A section under `title` (see `section(icons:_:)`).
    public static func section(_ title: String, icons: Bool = false, _ entries: [MenuEntry]) -> MenuEntry {
        MenuEntry(title: title, content: .section(entries), iconName: nil, accelerator: nil, isEnabled: true, style: .normal, showsIcons: icons)
    }

    /// A submenu titled `title` showing `entries`.
    public static func submenu(_ title: String, icon: String? = nil, _ entries: [MenuEntry]) -> MenuEntry {
        MenuEntry(title: title, content: .submenu(entries), iconName: icon, accelerator: nil, isEnabled: true, style: .normal)
    }

    /// The entries that do something, in menu order: the sections' and submenus' expanded.
    var actionEntries: [MenuEntry] {
        switch content {
        case .action: return [self]
        case .section(let entries), .submenu(let entries): return entries.flatMap(\.actionEntries)
        }
    }

    /// This entry without the entries `keep` refuses, or nil when it is such an entry or a
    /// section or submenu left empty.
    func filtered(_ keep: (MenuEntry) -> Bool) -> MenuEntry? {
        var copy = self
        switch content {
        case .action: return keep(self) ? self : nil
        case .section(let entries):
            copy.content = .section(entries.compactMap { $0.filtered(keep) })
        case .submenu(let entries):
            copy.content = .submenu(entries.compactMap { $0.filtered(keep) })
        }
        return copy.actionEntries.isEmpty ? nil : copy
    }
}
