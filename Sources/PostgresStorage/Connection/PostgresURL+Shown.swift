import Foundation

extension PostgresURL {
    /// The longest URL shown whole in a message, in characters; a longer one loses its middle.
    static let longestShown = 160

    /// `text` as a message may show it: without a password (the user part's or a
    /// `password` parameter's), control characters percent-encoded, and the middle of a
    /// very long one left out. A text that is no `postgres://` URL loses everything before
    /// the last `@` of its authority.
    static func shown(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let start = schemeEnd(of: bytes) ?? bytes.startIndex
        let authorityEnd = bytes[start...].firstIndex { $0 == .slash || $0 == .question } ?? bytes.endIndex
        if let question = bytes[authorityEnd...].firstIndex(of: .question) {
            let kept = bytes[(question + 1)...].split(separator: .ampersand, omittingEmptySubsequences: false).filter { parameter in
                let name = String(decoding: parameter.prefix { $0 != .equals }, as: UTF8.self)
                return (name.removingPercentEncoding ?? name) != "password"
            }
            bytes = kept.isEmpty ? Array(bytes[..<question]) : Array(bytes[...question]) + Array(kept.joined(separator: [.ampersand]))
        }
        if let at = bytes[start..<authorityEnd].lastIndex(of: .at) {
            if !isPostgres(bytes[..<start]) {
                bytes.replaceSubrange(start..<at, with: "…".utf8)
            } else if let colon = bytes[start..<at].firstIndex(of: .colon) {
                bytes.removeSubrange(colon..<at)
            }
        }
        let visibleText = visible(bytes[...])
        guard visibleText.count > longestShown else { return visibleText }
        return String(visibleText.prefix(longestShown * 3 / 4)) + "…" + String(visibleText.suffix(longestShown / 4))
    }

    /// `bytes` (UTF-8) as text, with control characters percent-encoded.
    static func visible(_ bytes: ArraySlice<UInt8>) -> String {
        visible(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` with control characters percent-encoded.
    static func visible(_ text: String) -> String {
        encoded(text) { _ in false }
    }

    /// `text` as a part of a URL that reads back as `text`: control characters, `%` and the
    /// characters in `reserved` (those that end the part) percent-encoded.
    static func encodedPart(_ text: String, reserved: String) -> String {
        encoded(text) { $0 == "%" || reserved.unicodeScalars.contains($0) }
    }

    private static func encoded(_ text: String, also isEncoded: (Unicode.Scalar) -> Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || isEncoded(scalar) {
                result += String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
