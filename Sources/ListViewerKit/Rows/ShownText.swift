import CGtk
import ListViewManager

/// Text as the viewer lays it out. A title, a name or a value can be any length (a
/// catalog's title of megabytes, a table name of thousands of characters, a database
/// value), but Pango takes gigabytes and a minute to lay out megabytes, and a label as wide
/// as its text makes an X window wider than X allows. Labels get at most `limit` Unicode
/// scalars; longer text is cut there and ends in "…".
enum ShownText {
    /// The most Unicode scalars a label is given: several screens' width.
    static let limit = 2000

    /// `text`, or its first `limit` Unicode scalars and "…" when it is longer.
    static func bounded(_ text: String) -> String {
        // Counting UTF-8 bytes is free for Swift's own strings: short text costs nothing.
        guard text.utf8.count > limit else { return text }
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return text }
        return String(scalars[..<end]) + "…"
    }
}

@MainActor
extension Label {
    /// The text shown, cut to `ShownText.limit` when set.
    var shownText: String {
        get { text }
        set { text = ShownText.bounded(newValue) }
    }

    /// Keeps the label on one line, shortened with "…" at `mode` to fit its width, and
    /// asking for no more than `maxWidthChars` characters' width.
    func ellipsize(_ mode: PangoEllipsizeMode, maxWidthChars: Int32) {
        gtk_label_set_single_line_mode(opaquePointer, 1)
        gtk_label_set_ellipsize(opaquePointer, mode)
        gtk_label_set_max_width_chars(opaquePointer, maxWidthChars)
    }

    /// Wraps the label's lines anywhere (a name of 255 characters has no space to wrap
    /// at), asking for no more than `maxWidthChars` characters' width.
    func wrapAnywhere(maxWidthChars: Int32) {
        gtk_label_set_wrap(opaquePointer, 1)
        gtk_label_set_wrap_mode(opaquePointer, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(opaquePointer, maxWidthChars)
    }
}
