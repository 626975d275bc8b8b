import Foundation
import ModelStorage

/// The texts of a list's rows as type-ahead find compares them: folded (case and accents
/// ignored) and laid one after another in one buffer, by position in the list. Read in one
/// pass over the items, a part at a time while the main loop is idle and the list has the
/// focus, or at once at the first search; a search is then a comparison of bytes per row,
/// whatever the items are. The list's next change drops it (see `TypeAheadFind`).
struct TypeAheadIndex {
    /// Every row's folded text, one after another (none for headers and footers, and
    /// items without a text).
    private var bytes: [UInt8] = []
    /// Where each row's text ends in `bytes` (it starts where the one before ends; 4 bytes
    /// a row: the texts of a list stay under 2 GB).
    private var ends: [Int32]

    /// The number of rows the index is of.
    let count: Int

    /// An index of `count` rows whose texts are still to be read (`read`).
    init(count: Int) {
        self.count = count
        ends = []
        ends.reserveCapacity(count)
    }

    /// Whether every row's text is read.
    var isComplete: Bool { ends.count == count }

    /// Reads the texts of the rows not read yet, in order, asking `text` for each, until
    /// every one is read or `goOn` (asked every 256 rows) says to stop.
    mutating func read(_ text: (Int) -> String?, while goOn: () -> Bool = { true }) {
        while ends.count < count {
            let end = min(count, ends.count + 256)
            for position in ends.count..<end {
                if let text = text(position) { Self.appendFolded(text, to: &bytes) }
                ends.append(Int32(truncatingIfNeeded: bytes.count))
            }
            if !goOn() { return }
        }
    }

    /// Whether the text of the row at `position` starts with (or, `anywhere`, contains)
    /// `typed`, folded.
    func matches(_ position: Int, _ typed: [UInt8], anywhere: Bool) -> Bool {
        let start = position == 0 ? 0 : Int(ends[position - 1]), end = Int(ends[position])
        guard end - start >= typed.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            typed.withUnsafeBufferPointer { typed in
                let lastStart = anywhere ? end - typed.count : start
                var from = start
                while from <= lastStart {
                    if memcmp(all.baseAddress! + from, typed.baseAddress!, typed.count) == 0 { return true }
                    from += 1
                }
                return false
            }
        }
    }

    /// `text` folded: ASCII lowercased byte by byte; any other text through Foundation's
    /// folding (case and diacritics), then lowercased.
    static func folded(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendFolded(text, to: &bytes)
        return bytes
    }

    private static func appendFolded(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let isASCII = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 >= 0x80 }) else { return false }
            bytes.append(contentsOf: utf8.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
            return true
        }
        if !isASCII {
            bytes.append(contentsOf: text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased().utf8)
        }
    }
}
