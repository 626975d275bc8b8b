import CGtk
import ListViewManager

/// Text as the viewer lays it out. A title, a name or a value can be any length (a
/// catalog's title of megabytes, a table name of thousands of characters, a database
/// value), but Pango takes gigabytes and a minute to lay out megabytes, and a label as wide
/// as its text makes an X window wider than X allows. Labels get at most `limit`
/// characters; longer text is cut there and ends in "…".
package enum ShownText {
    /// The most characters a label is given: several screens' width.
    static let limit = 2000

    /// `text`, or its first `limit` characters and "…" when it is longer. Cut between
    /// characters, so no flag or accented letter is split, unless those characters hold
    /// far more than their share of the text (a letter under a million combining marks):
    /// then between Unicode scalars.
    static func bounded(_ text: String) -> String {
        // Counting UTF-8 bytes is free for Swift's own strings: short text costs nothing.
        guard text.utf8.count > limit else { return text }
        let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex) ?? text.endIndex
        if text.utf8[..<end].count <= 16 * limit {
            return end == text.endIndex ? text : String(text[..<end]) + "…"
        }
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return text }
        return String(scalars[..<end]) + "…"
    }

    /// The section index title of a section named `name`: the number it ends with ("Genre
    /// 07": "07", at most four digits), else its first letter or digit, upper case ("fantasy":
    /// "F"); nil for a name with neither.
    package static func indexTitle(of name: String) -> String? {
        let number = name.reversed().prefix { $0.isNumber && $0.isASCII }
        if !number.isEmpty, number.count <= 4 { return String(number.reversed()) }
        return name.first { $0.isLetter || $0.isNumber }.map { String($0).uppercased() }
    }
}

@MainActor
extension Label {
    /// The text shown, cut to `ShownText.limit` when set.
    var shownText: String {
        get { text }
        set { text = ShownText.bounded(newValue) }
    }
}
