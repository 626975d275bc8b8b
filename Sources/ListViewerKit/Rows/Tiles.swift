import CGtk
import Foundation
import ListViewManager

/// A cell of the viewer's grid: a large icon over the item's name, centred.
@MainActor
public class Tile: RowWidget {
    let box = Box(orientation: .vertical, spacing: 6)
    /// The icon, or an image file's thumbnail.
    public let picture = Image()
    /// The name, on up to two lines.
    public let name = Label()

    /// An empty tile.
    public required init() {
        box.addCSSClass("tile")
        box.setMargins(vertical: 8, horizontal: 8)
        gtk_widget_set_size_request(picture.gtkWidget, Int32(Thumbnails.size), Int32(Thumbnails.size))
        gtk_label_set_xalign(name.opaquePointer, 0.5)
        gtk_label_set_justify(name.opaquePointer, GTK_JUSTIFY_CENTER)
        name.wrapAnywhere(lines: 2, maxWidthChars: 14)
        box.append(picture)
        box.append(name)
    }

    /// The tile's box.
    public var rootWidget: UnsafeMutablePointer<GtkWidget> { box.gtkWidget }

    /// The size of an icon (a thumbnail is larger: `Thumbnails.size`).
    static let iconSize = 64

    func show(icon: String, name text: String) {
        picture.pixelSize = Self.iconSize
        picture.iconName = icon
        name.shownText = text
    }
}

/// A grid cell for any item with details: its kind's icon and its title.
public final class ItemTile: Tile, ModelTransfer {
    /// Shows `model`'s icon and title.
    public func update(with model: any Detailed) {
        show(icon: model.iconName, name: model.detailTitle)
    }
}

/// A grid cell for an image file: its thumbnail once made (the image icon until then).
public final class ImageTile: Tile, ModelTransfer {
    /// The file shown (the thumbnail arriving for another one is not shown).
    public private(set) var path = ""
    /// Whether the thumbnail is shown (not the icon).
    public private(set) var showsThumbnail = false

    /// Shows the image icon and `model`'s name, then its thumbnail once made.
    public func update(with model: DirectoryEntry) {
        path = model.path
        showsThumbnail = false
        show(icon: model.iconName, name: model.name)
        Thumbnails.shared.thumbnail(of: model.path) { [weak self] texture in
            guard let self, path == model.path else { return }
            picture.pixelSize = Thumbnails.size
            gtk_image_set_from_paintable(picture.opaquePointer, texture)
            showsThumbnail = true
        }
    }
}
