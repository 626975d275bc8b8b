/// How SQLite matches the names of tables and columns: a name written in any ASCII case
/// is the same name ("Fruit" is "fruit"), while other letters match only exactly ("É" is
/// not "é", "straße" is not "STRASSE").
enum SQLiteName {
    /// The name in `names` that SQLite would take `name` for: the one spelled exactly
    /// so, else the first equal to it ignoring ASCII case, else nil.
    static func find(_ name: String, in names: [String]) -> String? {
        // Bytes, as SQLite compares them: Swift's `==` would take two spellings of "É"
        // (composed and decomposed) for one name.
        names.first { $0.utf8.elementsEqual(name.utf8) } ?? names.first { equalIgnoringASCIICase($0, name) }
    }

    /// Whether `first` and `second` are equal once their ASCII letters are lowercased.
    static func equalIgnoringASCIICase(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count && zip(first.utf8, second.utf8).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
