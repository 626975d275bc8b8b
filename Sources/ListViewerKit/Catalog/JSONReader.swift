import Foundation
import ModelStorage
import VisibleText

/// `JSONText`'s parser: reads a JSON text byte by byte, throwing at the first thing JSON (or
/// Foundation's JSONDecoder) does not allow, and noting where the value at `target` (a
/// decoder's coding path) is.
struct JSONReader {
    /// What is wrong and the offset of the byte where it is.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    private let bytes: [UInt8]
    private let target: [CodingKey]
    /// The bytes of the value at `target`, once read.
    private(set) var found: Range<Int>?
    private var index = 0

    init(bytes: [UInt8], target: [CodingKey] = []) {
        self.bytes = bytes
        self.target = target
    }

    /// Reads the whole text: one value, with only white space around it.
    mutating func readText() throws(Failure) {
        try checkUTF8()
        if bytes.starts(with: JSONText.byteOrderMark) { index = JSONText.byteOrderMark.count }
        skipSpace()
        try readValue(depth: 0, matched: 0)
        skipSpace()
        guard index == bytes.count else { throw unexpected() }
    }

    /// Reads a value; `matched` is how much of `target` the path to it matches (nil: it
    /// is not on the way to `target`).
    private mutating func readValue(depth: Int, matched: Int?) throws(Failure) {
        let start = index
        guard let first = peek else { throw unexpected() }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONText.deepestNesting else {
                throw Failure(reason: tr("arrays and objects nested more than %ld deep", JSONText.deepestNesting), offset: index)
            }
            try readContainer(depth: depth + 1, matched: matched, isObject: first == UInt8(ascii: "{"))
        case UInt8(ascii: "\""): _ = try readString(decoding: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try readNumber()
        case UInt8(ascii: "t"): try readWord("true")
        case UInt8(ascii: "f"): try readWord("false")
        case UInt8(ascii: "n"): try readWord("null")
        default: throw unexpected()
        }
        if matched == target.count, found == nil { found = start..<index }
    }

    /// Reads `{"name": value, …}` or `[value, …]`.
    private mutating func readContainer(depth: Int, matched: Int?, isObject: Bool) throws(Failure) {
        let close = UInt8(ascii: isObject ? "}" : "]")
        index += 1
        skipSpace()
        if peek == close {
            index += 1
            return
        }
        var position = 0
        while true {
            // The next key of `target`, if this is on the way to it.
            let next = matched.flatMap { $0 < target.count ? target[$0] : nil }
            var isOnPath = next.map { $0.intValue == (isObject ? nil : position) } ?? false
            if isObject {
                guard peek == UInt8(ascii: "\"") else { throw unexpected() }
                let name = try readString(decoding: isOnPath)
                isOnPath = isOnPath && name == next?.stringValue
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw unexpected() }
                index += 1
                skipSpace()
            }
            try readValue(depth: depth, matched: isOnPath ? matched! + 1 : nil)
            skipSpace()
            if peek == close {
                index += 1
                return
            }
            guard peek == UInt8(ascii: ",") else { throw unexpected() }
            let comma = index
            index += 1
            skipSpace()
            if peek == close {
                throw Failure(reason: tr("a trailing comma before %@", isObject ? "}" : "]"), offset: comma)
            }
            position += 1
        }
    }

    /// Reads a string; returns its text when `decoding`.
    private mutating func readString(decoding: Bool) throws(Failure) -> String? {
        let open = index
        var text: [UInt8] = []
        index += 1
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return decoding ? String(decoding: text, as: UTF8.self) : nil
            case UInt8(ascii: "\\"):
                let scalar = try readEscape()
                if decoding { text.append(contentsOf: String(scalar).utf8) }
            case 0..<0x20:
                throw Failure(reason: tr("a control character in a string (JSON writes it \\u%@)", String(format: "%04X", byte)), offset: index)
            default:
                if decoding { text.append(byte) }
                index += 1
            }
        }
        throw Failure(reason: tr("a string not closed by \""), offset: open)
    }

    /// Reads `\n`, `\"`, `\u00E9` or another escape, a surrogate pair as one.
    private mutating func readEscape() throws(Failure) -> Unicode.Scalar {
        let start = index
        index += 1
        guard let letter = peek else { throw unexpected() }
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): break
        default:
            throw Failure(reason: tr("an unknown escape \\%@", String(decoding: [letter], as: UTF8.self).withVisibleControlCharacters), offset: start)
        }
        let unit = try readCodeUnit(escapeStart: start)
        if let scalar = Unicode.Scalar(unit) { return scalar }
        // A surrogate: a high one, then a low one, stand for one character.
        let hex = String(format: "%04X", unit)
        guard UTF16.isLeadSurrogate(UInt16(unit)), bytes[index...].starts(with: Array(#"\u"#.utf8)) else {
            throw Failure(reason: tr("half a surrogate pair, \\u%@, without its other half", hex), offset: start)
        }
        index += 2
        let low = try readCodeUnit(escapeStart: index - 2)
        guard UTF16.isTrailSurrogate(UInt16(low)) else {
            throw Failure(reason: tr("half a surrogate pair, \\u%@, without its other half", hex), offset: start)
        }
        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
    }

    /// The four hexadecimal digits of a `\u` escape.
    private mutating func readCodeUnit(escapeStart: Int) throws(Failure) -> UInt32 {
        let digits = bytes[index..<min(index + 4, bytes.count)]
        guard digits.count == 4, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 }),
              let unit = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
            throw Failure(reason: tr("\\u without four hexadecimal digits"), offset: escapeStart)
        }
        index += 4
        return unit
    }

    /// Reads a number: `-`, digits without a leading zero, then `.digits`, then `e±digits`.
    /// One no Double holds (it would be infinite, or 0 though it is not) is refused, as
    /// JSONDecoder refuses it.
    private mutating func readNumber() throws(Failure) {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, isDigit(first) else { throw unexpected() }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek, isDigit(digit) else { throw unexpected() }
            skipDigits()
        }
        let mantissaEnd = index
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek, isDigit(digit) else { throw unexpected() }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let value = Double(text) ?? .infinity
        if value.isInfinite {
            throw Failure(reason: tr("a number too large to be read (%@)", JSONText.quoted(text)), offset: start)
        }
        if value == 0, bytes[start..<mantissaEnd].contains(where: { UInt8(ascii: "1")...UInt8(ascii: "9") ~= $0 }) {
            throw Failure(reason: tr("a number too close to 0 to be read (%@)", JSONText.quoted(text)), offset: start)
        }
    }

    /// Reads the word `word` (`true`, `false`, `null`).
    private mutating func readWord(_ word: String) throws(Failure) {
        for letter in word.utf8 {
            guard peek == letter else { throw unexpected() }
            index += 1
        }
    }

    /// Finds the first byte that is not part of a UTF-8 character.
    private func checkUTF8() throws(Failure) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return
            case .error: throw Failure(reason: tr("bytes that are not UTF-8 text"), offset: offset)
            }
        }
    }

    /// The failure of finding what is at `index`, or the text's end.
    private func unexpected() -> Failure {
        guard index < bytes.count else { return Failure(reason: tr("an early end of the text"), offset: index) }
        let end = bytes[(index + 1)...].firstIndex { $0 & 0xC0 != 0x80 } ?? bytes.count
        return Failure(reason: tr("unexpected '%@'", String(decoding: bytes[index..<end], as: UTF8.self).withVisibleControlCharacters), offset: index)
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { index += 1 }
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
