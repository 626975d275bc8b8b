import Foundation

/// Whether an item's text matches what was typed, ignoring case and accents. Most texts are
/// ASCII: they are compared byte by byte, with no copy; a text with other characters where
/// it matters is folded first (Foundation's folding, as `String.CompareOptions` has it).
struct TypeAheadMatcher {
    /// What was typed, folded.
    private let typed: String
    /// Its bytes, lowercased, when it is ASCII once folded (else nil: every text is folded).
    private let asciiTyped: [UInt8]?
    /// Whether a match may be anywhere in the text (else at its start).
    private let anywhere: Bool

    init(_ typed: String, anywhere: Bool) {
        self.typed = Self.folded(typed)
        let bytes = Array(self.typed.utf8)
        asciiTyped = bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
        self.anywhere = anywhere
    }

    func matches(_ text: String) -> Bool {
        if let asciiTyped, let matched = Self.asciiMatch(asciiTyped, in: text, anywhere: anywhere) { return matched }
        let folded = Self.folded(text)
        return anywhere ? folded.contains(typed) : folded.hasPrefix(typed)
    }

    /// The match of `typed` (lowercase ASCII) in `text` compared as ASCII, or nil when a
    /// byte of `text` that decides is not ASCII.
    private static func asciiMatch(_ typed: [UInt8], in text: String, anywhere: Bool) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            guard bytes.count >= typed.count else { return bytes.allSatisfy { $0 < 0x80 } ? false : nil }
            let lastStart = anywhere ? bytes.count - typed.count : 0
            if anywhere, bytes.contains(where: { $0 >= 0x80 }) { return nil }
            var start = 0
            while start <= lastStart {
                var index = 0
                while index < typed.count {
                    let byte = bytes[start + index]
                    if byte >= 0x80 { return nil }
                    if lowercased(byte) != typed[index] { break }
                    index += 1
                }
                if index == typed.count { return true }
                start += 1
            }
            return false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    private static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }
}
