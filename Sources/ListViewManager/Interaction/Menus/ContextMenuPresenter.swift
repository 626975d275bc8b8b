import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Shows a manager's context menus: one GtkPopoverMenu, a child of the list view, pointing
/// at the row it was opened on, made from the menu's GMenu model; the model's actions are
/// inserted on the list view as the `context` group, made anew for each opening. What the
/// menu is for follows storage updates while it is open, so that an entry acts on its item
/// (header, footer, selection) wherever it moved, or on nothing (an anomaly) once removed.
@MainActor
final class ContextMenuPresenter: UpdateParticipant {
    private weak var manager: ItemViewManager?
    private let view: UnsafeMutablePointer<GtkWidget>
    /// The popover (the list view is its parent and holds its reference).
    private(set) var popover: UnsafeMutablePointer<GtkWidget>?
    /// The model of the open (or last) menu.
    private(set) var model: ContextMenuModel?
    /// What the open (or last) menu is for, where it is now; nil once removed.
    private(set) var target: MenuTarget?
    /// How many menus were opened: a menu waiting to pop up pops up only if still the last.
    private var openings = 0

    init(manager: ItemViewManager) {
        self.manager = manager
        view = manager.view
    }

    /// Whether a menu is shown, or about to pop up.
    var isShown: Bool {
        guard let popover else { return false }
        return waitingToPopUp || gtk_widget_get_visible(popover) != 0
    }

    /// Whether the last menu opened has yet to pop up.
    private var waitingToPopUp = false

    /// The titles of the entries that do something in the menu shown now (or about to pop
    /// up), or nil when no menu is shown.
    var shownTitles: [String]? {
        isShown ? model?.actionEntries.map(\.title) : nil
    }

    /// Opens the menu of `entries` for `target`, pointing at `rect` (list view coordinates).
    func open(_ entries: [MenuEntry], for target: MenuTarget, pointingTo rect: GdkRectangle) {
        self.target = target
        let model = ContextMenuModel(entries) { [weak self] index in self?.choose(index) }
        self.model = model
        // The actions first, so that GTK makes each entry knowing whether it is enabled.
        gtk_widget_insert_action_group(view, ContextMenuModel.actionPrefix, OpaquePointer(model.actions.pointer))
        // A popover hidden a moment ago is not shown again: on X11 the server's note that its
        // window was unmapped may still be on its way, and GTK 4.18 would take it for the
        // new popup's and close it at once. A new popover has a window of its own. The old
        // one goes once idle, not inside the press that asked for this menu (which X may
        // still have delivered to its window): GTK counts the widgets a press went through,
        // and takes the count back on the release.
        if let hidden = self.popover, gtk_widget_get_visible(hidden) == 0 {
            retire(hidden)
            self.popover = nil
        }
        let popover = self.popover ?? makePopover()
        gtk_popover_menu_set_menu_model(OpaquePointer(popover), model.menuModel)
        DestructiveEntries.mark(entries, in: popover)
        var pointing = rect
        gtk_popover_set_pointing_to(asPopover(popover), &pointing)
        // GTK shows sections' separators and titles only once idle, and the popover of 4.8
        // keeps the size it popped up with: it pops up once they are in.
        openings += 1
        let opening = openings
        waitingToPopUp = true
        whenIdle { [weak self] in
            guard let self, openings == opening, let popover = self.popover else { return }
            waitingToPopUp = false
            gtk_popover_popup(asPopover(popover))
        }
    }

    private func asPopover(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkPopover> {
        gtkCast(widget, to: GtkPopover.self)
    }

    private func makePopover() -> UnsafeMutablePointer<GtkWidget> {
        let popover = gtk_popover_menu_new_from_model(nil)!
        gtk_widget_set_parent(popover, view)
        gtk_popover_set_position(asPopover(popover), GTK_POS_BOTTOM)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        gtk_widget_add_css_class(popover, "row-context-menu")
        self.popover = popover
        return popover
    }

    /// Popovers of earlier menus, hidden, still children of the list view until idle.
    private var retired: [UnsafeMutablePointer<GtkWidget>] = []

    /// Takes `popover` off the list view once idle.
    private func retire(_ popover: UnsafeMutablePointer<GtkWidget>) {
        retired.append(popover)
        whenIdle { [weak self] in self?.unparentRetired() }
    }

    private func unparentRetired() {
        retired.forEach { gtk_widget_unparent($0) }
        retired = []
    }

    /// Closes the menu, if shown.
    func close() {
        openings += 1
        waitingToPopUp = false
        if let popover { gtk_popover_popdown(asPopover(popover)) }
    }

    /// Runs entry `index` (an action's number) for the target.
    func choose(_ index: Int) {
        guard let manager, let entries = model?.actionEntries, entries.indices.contains(index) else { return }
        close()
        manager.runMenuEntry(entries[index], for: target)
    }

    /// Follows the target through an update (nil when it was removed); before a reload,
    /// the target is gone.
    var phases: UpdatePhases { .beforeSplices }

    func willApply(_ change: ContentChange) {
        guard let current = target else { return }
        target = change.update.flatMap(current.following)
    }

    /// Takes the popover and the actions off the list view (before the list view goes).
    func detach() {
        openings += 1
        waitingToPopUp = false
        gtk_widget_insert_action_group(view, ContextMenuModel.actionPrefix, nil)
        unparentRetired()
        guard let popover else { return }
        gtk_widget_unparent(popover)
        self.popover = nil
    }
}
