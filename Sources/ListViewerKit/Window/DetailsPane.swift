import CGtk
import ListViewManager

/// The pane beside the list: the selected item's heading and details.
@MainActor
final class DetailsPane: Box {
    private let heading = Label()
    private let rows = Box(orientation: .vertical, spacing: 6)
    private(set) var shownTitle: String?

    init() {
        super.init(groupNamed: tr("Details"), orientation: .vertical, spacing: 12)
        addCSSClass("details")
        setMargins(vertical: 18, horizontal: 18)
        gtk_widget_set_size_request(gtkWidget, 240, -1)
        heading.addCSSClass("title-3")
        // A long name (255 bytes, or a catalog title of any length) wraps within the pane.
        heading.wrapAnywhere(maxWidthChars: 30)
        append(heading)
        append(rows)
        show(nil)
    }

    /// Shows `model`'s details, or a hint when nothing is selected.
    func show(_ model: (any Detailed)?) {
        while let child = gtk_widget_get_first_child(rows.gtkWidget) {
            gtk_box_remove(rows.gtkPointer(as: GtkBox.self), child)
        }
        guard let model else {
            heading.text = tr("Nothing selected")
            shownTitle = nil
            return
        }
        heading.shownText = model.detailTitle
        shownTitle = model.detailTitle
        for (name, value) in model.details {
            let line = Box(orientation: .vertical, spacing: 0)
            let nameLabel = Label(name)
            nameLabel.addCSSClass("dim-label")
            nameLabel.addCSSClass("caption")
            let valueLabel = Label()
            valueLabel.shownText = value
            valueLabel.wrapAnywhere(maxWidthChars: 30)
            gtk_label_set_selectable(valueLabel.opaquePointer, 1)
            line.append(nameLabel)
            line.append(valueLabel)
            rows.append(line)
        }
    }
}
