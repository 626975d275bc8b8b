import Foundation

/// A ```swift block of a Markdown document, and the Swift files it is checked as.
///
/// A block with `import` lines is a whole file: it is compiled with those imports alone, and
/// again next to `import GRDB`. A block without is part of a file: it is compiled after the
/// imports of an app that uses every module of the package, GRDB included. Either way it
/// also sees `DocumentationContext` (the models, rows and functions blocks use without
/// declaring them); its own declarations take their place.
struct SwiftCodeBlock: CustomStringConvertible {
    /// The document's path in the repository.
    let document: String
    /// The line of the document where the code starts (1-based).
    let line: Int
    /// The code, without the fences and the fences' indentation.
    let code: String

    /// The imports a block without any is compiled after.
    static let appImports = ["Foundation", "GRDB", "ListViewManager", "PostgresStorage", "SQLiteStorage"]

    var description: String { "\(document):\(line)" }

    /// Whether the block shows its file's imports.
    var isWholeFile: Bool {
        code.split(separator: "\n").contains { $0.hasPrefix("import ") }
    }

    /// The Swift files the block is checked as: the name of each variant, and its text,
    /// whose diagnostics point at the document's lines.
    var files: [(variant: String, text: String)] {
        let variants = isWholeFile
            ? [("as written", [String]()), ("next to GRDB", ["GRDB"])]
            : [("in an app importing \(Self.appImports.joined(separator: ", "))", Self.appImports)]
        return variants.map { name, imports in
            let hidden = (imports + ["DocumentationContext"]).map { "import \($0)\n" }.joined()
            return (name, hidden + "#sourceLocation(file: \"\(document)\", line: \(line))\n" + code)
        }
    }

    /// The ```swift blocks of the Markdown text `markdown`, read from `document`.
    static func blocks(in markdown: String, document: String) -> [SwiftCodeBlock] {
        var blocks: [SwiftCodeBlock] = []
        var open: (line: Int, indent: Int, lines: [Substring])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if var block = open {
                if content == "```" {
                    blocks.append(SwiftCodeBlock(document: document, line: block.line, code: block.lines.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    block.lines.append(line.dropFirst(min(indent, block.indent)))
                    open = block
                }
            } else if content == "```swift" {
                open = (index + 2, indent, [])
            }
        }
        if let block = open {                 // an unclosed block is still checked
            blocks.append(SwiftCodeBlock(document: document, line: block.line, code: block.lines.joined(separator: "\n") + "\n"))
        }
        return blocks
    }
}
