import CGtk
import ListViewManager

/// A row with an icon, a title over a dimmed subtitle, and a trailing note: the shape of
/// every row of the viewer.
@MainActor
open class DetailRow: ListRow {
    public let icon = Image()
    public let title = Label()
    public let subtitle = Label()
    public let note = Label()

    public required init() {
        super.init()
        icon.pixelSize = 24
        title.addCSSClass("row-title")
        subtitle.addCSSClass("dim-label")
        subtitle.addCSSClass("caption")
        note.addCSSClass("dim-label")
        note.addCSSClass("numeric")
        // A long name shortens in the middle, keeping its end (a file's extension) in view.
        title.ellipsize(.middle, maxWidthChars: 80)
        subtitle.ellipsize(.end, maxWidthChars: 80)
        note.ellipsize(.end, maxWidthChars: 24)
        let texts = Box(orientation: .vertical, spacing: 2)
        texts.expandsHorizontally = true
        texts.append(title)
        texts.append(subtitle)
        append(icon)
        append(texts)
        append(note)
    }

    /// Shows the texts and icon.
    public func show(icon name: String, title: String, subtitle: String, note: String) {
        icon.iconName = name
        self.title.shownText = title
        self.subtitle.shownText = subtitle
        self.note.shownText = note
    }
}

/// A book: title, author, year.
public final class BookRow: DetailRow, ModelTransfer {
    public func update(with model: Book) {
        show(icon: model.iconName, title: model.title, subtitle: model.author, note: "\(model.year)")
    }
}

/// A place: name, country, coordinates.
public final class PlaceRow: DetailRow, ModelTransfer {
    public func update(with model: Place) {
        show(icon: model.iconName, title: model.name, subtitle: model.country,
             note: String(format: "%.2f, %.2f", model.latitude, model.longitude))
    }
}

/// An album, built from `AlbumRow.ui`.
public final class AlbumRow: TemplateRow, ModelTransfer {
    lazy var title: Label = outlet("title")
    lazy var artist: Label = outlet("artist")
    lazy var tracks: Label = outlet("tracks")

    public func update(with model: Album) {
        title.shownText = model.title
        artist.shownText = "\(model.artist) · \(model.year)"
        tracks.text = tr.plural("%ld track", "%ld tracks", count: model.tracks, model.tracks)
    }
}

/// A section header with an icon and a subtitle.
public final class BannerHeaderRow: DetailRow, ModelTransfer {
    public required init() {
        super.init()
        addCSSClass("banner-header")
    }

    public func update(with model: SectionBanner) {
        show(icon: model.icon ?? "folder-symbolic", title: model.title, subtitle: model.subtitle ?? "", note: "")
    }
}
