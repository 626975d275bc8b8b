/// Finds what Foundation's JSON parser lets through but JSON forbids: a comma right
/// before the `}` or `]` that closes an object or array (`{"a": 1,}`, `[1, 2,]`).
enum TrailingComma {
    /// Where the first trailing comma of the JSON text `bytes` is, as "a trailing comma
    /// before } at line L, column C" (the comma's place, counted in characters from 1), or
    /// nil when there is none. Commas inside strings are text, not separators.
    static func find(in bytes: some Collection<UInt8>) -> String? {
        var line = 1, column = 0
        var inString = false, escaped = false
        var comma: (line: Int, column: Int)?
        for byte in bytes {
            // A UTF-8 continuation byte continues the character before it.
            if byte & 0xC0 != 0x80 { column += 1 }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                column = 0
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma {
                    return tr("a trailing comma before %@ at line %ld, column %ld", String(Character(Unicode.Scalar(byte))), comma.line, comma.column)
                }
            case UInt8(ascii: ","):
                comma = (line, column)
                continue
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            comma = nil
        }
        return nil
    }
}
