import CGtk
import CGtkShims
import Foundation
import ModelStorage

/// A model that names itself to screen readers: its rows' accessible label.
public protocol AccessibilityLabeled {
    /// What a screen reader says for the item's row.
    var accessibilityLabel: String { get }
}

extension ListViewManager {
    /// Gives the rows of items of `modelType` a tooltip: `text` returns it (nil: none).
    public func tooltip<Model>(model modelType: Model.Type, _ text: @escaping (Model, IndexPath) -> String?) {
        tooltipProviders.append { model, indexPath in
            guard let model = model as? Model else { return .none }
            return .some(text(model, indexPath))
        }
    }

    /// Names the rows of items of `modelType` for screen readers (over the model's own
    /// `AccessibilityLabeled` label, if any). Without either, GTK names a row from the
    /// text it shows.
    public func accessibilityLabel<Model>(model modelType: Model.Type, _ label: @escaping (Model, IndexPath) -> String) {
        accessibilityLabelProviders.append { model, indexPath in
            guard let model = model as? Model else { return .none }
            return .some(label(model, indexPath))
        }
    }

    /// The list's name for screen readers (the list view's accessible label).
    public func setAccessibilityLabel(_ label: String) {
        cgtk_shims_accessible_set_label(listView, label)
    }

    /// The pointer entered a row of `rowType`.
    public func didHighlight<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didHighlight, .item, closure)
    }

    /// The pointer left a row of `rowType`.
    public func didUnhighlight<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didUnhighlight, .item, closure)
    }

    /// The pointer entered the row of an item of `modelType`, whatever row type shows it.
    public func didHighlight<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didHighlight, closure)
    }

    /// The pointer left the row of an item of `modelType`.
    public func didUnhighlight<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didUnhighlight, closure)
    }

    /// Sets the tooltip and accessible label of `row`, just bound or updated with `model`.
    func describe(_ row: RowWidget, showing model: Any, at flatRow: FlatRow) {
        if case .header = flatRow, let heading = gtk_widget_get_parent(row.rootWidget) {
            // The heading box the row is shown in: named by the header's text.
            cgtk_shims_accessible_set_label(heading, (model as? AccessibilityLabeled)?.accessibilityLabel ?? model as? String)
        }
        guard case .item(let indexPath) = flatRow else { return }
        if !tooltipProviders.isEmpty {
            let text = tooltipProviders.lazy.compactMap { $0(model, indexPath) }.first ?? nil
            gtk_widget_set_tooltip_text(row.rootWidget, text)
        }
        let label = accessibilityLabelProviders.lazy.compactMap { $0(model, indexPath) }.first
            ?? (model as? AccessibilityLabeled)?.accessibilityLabel
        if label != nil || !accessibilityLabelProviders.isEmpty, let listItemWidget = listItemWidget(of: row) {
            cgtk_shims_accessible_set_label(listItemWidget, label)
        }
    }

    /// The widget GTK made for the list item showing `row` (the list view's child that
    /// screen readers see as the list's item).
    private func listItemWidget(of row: RowWidget) -> UnsafeMutablePointer<GtkWidget>? {
        var widget = row.rootWidget
        while let parent = gtk_widget_get_parent(widget) {
            if parent == listView { return widget }
            widget = parent
        }
        return nil
    }

    /// A new item row reports the pointer entering and leaving it as `didHighlight` and
    /// `didUnhighlight` of the item it shows then.
    func rowWasCreated(_ row: RowWidget, kind: MappingKind, host: RowHost) {
        guard kind == .item else { return }
        let motion = gtk_event_controller_motion_new()!
        typealias EnterHandler = @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void
        typealias LeaveHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        let target = RowTarget(manager: self, row: row, host: host)
        let enter: EnterHandler = { _, _, _, data in
            MainActor.assumeIsolated { SignalClosure<RowTarget>.from(data).action.fire(.didHighlight) }
        }
        let leave: LeaveHandler = { _, data in
            MainActor.assumeIsolated { SignalClosure<RowTarget>.from(data).action.fire(.didUnhighlight) }
        }
        connect(UnsafeMutableRawPointer(motion), "enter", unsafeBitCast(enter, to: GCallback.self), SignalClosure(target))
        connect(UnsafeMutableRawPointer(motion), "leave", unsafeBitCast(leave, to: GCallback.self), SignalClosure(target))
        gtk_widget_add_controller(row.rootWidget, motion)
        installDragSource(on: row, host: host)
    }
}

/// A row watched by a controller (pointer motion, dragging), which acts for the item the
/// row shows at the time.
@MainActor
final class RowTarget {
    private(set) weak var manager: ListViewManager?
    private(set) weak var row: RowWidget?
    private weak var host: RowHost?

    init(manager: ListViewManager, row: RowWidget, host: RowHost) {
        self.manager = manager
        self.row = row
        self.host = host
    }

    /// The position of the item the row shows now, if it is bound to one.
    var boundPosition: Int? {
        guard let manager, let row, let host, let entry = manager.factory.attached[host.listItem],
              entry.isBound, entry.row === row else { return nil }
        return Int(gtk_list_item_get_position(host.listItem))
    }

    /// Fires `event` for the item the row shows now, if it is bound to one.
    func fire(_ event: EventKind) {
        guard let manager, let position = boundPosition else { return }
        manager.fireItemEvent(event, at: position)
    }
}
