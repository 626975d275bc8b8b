import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// A model that names itself to screen readers: its rows' accessible label.
public protocol AccessibilityLabeled {
    /// What a screen reader says for the item's row.
    var accessibilityLabel: String { get }
}

extension ItemViewManager {
    /// Gives the rows of items of `modelType` a tooltip: `text` returns it (nil: none). It
    /// is asked for when the pointer rests on a row, for the item the row shows then.
    public func tooltip<Model>(model modelType: Model.Type, _ text: @escaping (Model, IndexPath) -> String?) {
        rowDescriptions.tooltips.append(forModels(text))
    }

    /// The tooltip of the item at `position` of the view's list, if it has one.
    func tooltipText(at position: Int) -> String? {
        guard case .item(let indexPath)? = bridge.row(at: position), let model = bridge.model(of: .item(indexPath)) else { return nil }
        return rowDescriptions.tooltip(of: model, at: indexPath)
    }

    /// Names the rows of items of `modelType` for screen readers (over the model's own
    /// `AccessibilityLabeled` label, if any). Without either, GTK names a row from the
    /// text it shows.
    public func accessibilityLabel<Model>(model modelType: Model.Type, _ label: @escaping (Model, IndexPath) -> String) {
        rowDescriptions.accessibleLabels.append(forModels(label))
    }

    /// The list's name for screen readers (the list view's accessible label).
    public func setAccessibilityLabel(_ label: String) {
        cgtk_shims_accessible_set_label(view, label)
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

    /// Lets `entry`'s row, just bound or updated with `model`, show a tooltip when any
    /// model has one (its control characters shown as `Label` shows them), and sets the
    /// accessible label of its item when `namesItem`.
    func describe(_ entry: RowFactory.AttachedRow, showing model: Any, at flatRow: FlatRow, namesItem: Bool) {
        let row = entry.row
        if case .header = flatRow, let heading = gtk_widget_get_parent(row.rootWidget) {
            // The heading box the row is shown in: named by the header's text.
            cgtk_shims_accessible_set_label(heading, (model as? AccessibilityLabeled)?.accessibilityLabel ?? model as? String)
        }
        guard case .item(let indexPath) = flatRow else { return }
        // The text itself is asked for when the pointer rests on the row (`rowWasCreated`).
        if !rowDescriptions.tooltips.isEmpty { gtk_widget_set_has_tooltip(row.rootWidget, 1) }
        guard namesItem else { return }
        let label = rowDescriptions.accessibleLabel(of: model, at: indexPath)
        if label != nil || !rowDescriptions.accessibleLabels.isEmpty {
            nameItem(of: entry, label)
        }
    }

    /// Gives the item showing `entry`'s row the accessible `label` (nil: GTK names it from
    /// its content). GTK 4.12 names a list or grid item through its GtkListItem; before, and
    /// for a column view's row (its cells are list items of their own), the widget GTK made
    /// for the item is labelled, once it is placed (GTK 4.18 binds a row before placing it).
    private func nameItem(of entry: RowFactory.AttachedRow, _ label: String?) {
        if kind.namesItemsThroughListItems, cgtk_shims_list_item_set_accessible_label(entry.listItem, label) != 0 { return }
        if let itemWidget = itemWidget(of: entry.row) {
            cgtk_shims_accessible_set_label(itemWidget, label)
            return
        }
        whenIdle { [weak self] in
            guard let self, let itemWidget = itemWidget(of: entry.row) else { return }
            cgtk_shims_accessible_set_label(itemWidget, label)
        }
    }
}
