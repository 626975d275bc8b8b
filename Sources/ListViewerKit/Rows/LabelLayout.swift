import CGtk
import ListViewManager

/// How the viewer's labels fit long text into their width.
@MainActor
extension Label {
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
