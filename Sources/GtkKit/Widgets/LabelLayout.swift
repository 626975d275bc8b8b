import CGtk

/// How a label fits text longer than its width.
@MainActor
extension Label {
    /// Where a label shortens text too long for its width, putting "…" in its place.
    public enum Ellipsis: Sendable {
        /// Keeps the end: "…le name.txt".
        case start
        /// Keeps both ends, so a file's extension stays in view: "A lo…name.txt".
        case middle
        /// Keeps the start: "A long fi…".
        case end

        var pango: PangoEllipsizeMode {
            switch self {
            case .start: PANGO_ELLIPSIZE_START
            case .middle: PANGO_ELLIPSIZE_MIDDLE
            case .end: PANGO_ELLIPSIZE_END
            }
        }
    }

    /// Keeps the text on one line, shortened with "…" at `place` to fit the label's width.
    ///
    /// The label then asks for no more width than "…" takes, so a long text never widens
    /// its row, list or pane: it is cut to the width they give. `maxWidthChars` caps the
    /// width the label asks for when there is room (nil: its whole text's width).
    public func ellipsize(_ place: Ellipsis, maxWidthChars: Int? = nil) {
        gtk_label_set_single_line_mode(opaquePointer, 1)
        gtk_label_set_ellipsize(opaquePointer, place.pango)
        gtk_label_set_max_width_chars(opaquePointer, Int32(maxWidthChars ?? -1))
    }

    /// Wraps the text onto more lines, between words and, where a word is too long for a
    /// line (a name of 255 characters without a space), between characters.
    ///
    /// With `lines`, at most that many lines are shown, the last ending in "…".
    /// `maxWidthChars` caps the width the label asks for (nil: its longest line's width).
    public func wrapAnywhere(lines: Int? = nil, maxWidthChars: Int? = nil) {
        gtk_label_set_wrap(opaquePointer, 1)
        gtk_label_set_wrap_mode(opaquePointer, PANGO_WRAP_WORD_CHAR)
        if let lines {
            gtk_label_set_lines(opaquePointer, Int32(lines))
            gtk_label_set_ellipsize(opaquePointer, PANGO_ELLIPSIZE_END)
        }
        gtk_label_set_max_width_chars(opaquePointer, Int32(maxWidthChars ?? -1))
    }

    /// Whether the text is shown shortened, with "…", at the label's current width.
    public var isEllipsized: Bool {
        pango_layout_is_ellipsized(gtk_label_get_layout(opaquePointer)) != 0
    }
}
