extension String {
    /// The text with each control character that would not show as itself made visible: a
    /// C0 control character (U+0000 to U+001F, but for tab and line feed) becomes its symbol
    /// in the Control Pictures block (U+2400 "␀" to U+241F), and DELETE becomes "␡" (U+2421).
    /// C strings end at a NUL, so GTK would cut the text there, and a terminal would obey the
    /// others. Text without them is returned as it is, having been read once.
    package var withVisibleControlCharacters: String {
        guard utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x7F }) else { return self }
        var shown = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A: shown.append(scalar)
            case 0x00..<0x20: shown.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: shown.append("\u{2421}")
            default: shown.append(scalar)
            }
        }
        return String(shown)
    }
}
