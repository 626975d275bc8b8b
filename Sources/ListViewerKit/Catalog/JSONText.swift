import Foundation

/// A JSON text (RFC 8259, UTF-8) read strictly, saying where. Foundation's parsers let some
/// things through (a trailing comma) and refuse others without a place (a number no Double
/// holds, a lone surrogate, nesting past 512); here each is refused with its line and column,
/// and a value is found by the coding path a decoder gives it.
struct JSONText {
    /// The deepest nesting of arrays and objects Foundation's JSONDecoder reads.
    static let deepestNesting = 512
    /// What may start a UTF-8 text, and is not part of it.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A place in the text: line and column from 1, the column counted in characters.
    struct Place: Equatable {
        var line: Int
        var column: Int
    }

    /// What makes the text not JSON, and where, in words ("a trailing comma before } at line
    /// 1, column 27").
    struct Problem: Error {
        let reason: String
    }

    private let bytes: [UInt8]

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    /// Throws the first thing that makes the text not JSON.
    func check() throws(Problem) {
        var reader = JSONReader(bytes: bytes)
        do {
            try reader.readText()
        } catch {
            let place = place(at: error.offset)
            throw Problem(reason: tr("%@ at line %ld, column %ld", error.reason, place.line, place.column))
        }
    }

    /// Where the value at `path` starts (the text must be JSON), and its text as written;
    /// nil when the text has no such value.
    func value(at path: [CodingKey]) -> (place: Place, text: String)? {
        var reader = JSONReader(bytes: bytes, target: path)
        try? reader.readText()
        return reader.found.map { (place(at: $0.lowerBound), String(decoding: bytes[$0], as: UTF8.self)) }
    }

    /// `written` (a number, say) as a message shows it: its first 40 characters and "…"
    /// when it is longer.
    static func quoted(_ written: String) -> String {
        written.count > 40 ? String(written.prefix(40)) + "…" : written
    }

    /// The place of the byte at `offset`.
    func place(at offset: Int) -> Place {
        var place = Place(line: 1, column: 1)
        let start = bytes.starts(with: Self.byteOrderMark) ? Self.byteOrderMark.count : 0
        for byte in bytes[start..<max(start, min(offset, bytes.count))] {
            if byte == UInt8(ascii: "\n") {
                place = Place(line: place.line + 1, column: 1)
            } else if byte & 0xC0 != 0x80 {
                // A UTF-8 continuation byte continues the character before it.
                place.column += 1
            }
        }
        return place
    }
}
