import Foundation
import Testing

/// Every ```swift block of the README and of the DocC articles compiles (Swift 6, warnings as
/// errors), in a file of its own and in one that also imports GRDB (see `SwiftCodeBlock`).
/// The README's quick start is also built and run as an app (`ReadmeQuickStartTests`).
@Suite("The documentation's Swift code")
struct DocumentationCodeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every article of the modules' DocC catalogs, as paths in the repository.
    static let documents: [String] = {
        let sources = repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        let articles = files.filter { $0.split(separator: "/").count == 3 && $0.contains(".docc/") && $0.hasSuffix(".md") }
        return ["README.md"] + articles.sorted().map { "Sources/" + $0 }
    }()

    /// The compiler, with the context module built once for every document.
    static let compiler = Result {
        try SnippetCompiler.forThisBuild(context: repository.appendingPathComponent("Tests/DocumentationTests/Context/DocumentationContext.swift"))
    }

    @Test("The documents are found, and the README has Swift blocks")
    func documentsAreFound() throws {
        #expect(Self.documents.contains("Sources/ListViewManager/ListViewManager.docc/GettingStarted.md"))
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(SwiftCodeBlock.blocks(in: readme, document: "README.md").count >= 4)
    }

    @Test("Each Swift block compiles", arguments: documents)
    func swiftBlocksCompile(document: String) throws {
        let compiler = try Self.compiler.get()
        let markdown = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
        let blocks = SwiftCodeBlock.blocks(in: markdown, document: document)
        #expect(blocks.count == markdown.components(separatedBy: "```swift\n").count - 1, "every ```swift block is read")
        for block in blocks {
            for (index, file) in block.files.enumerated() {
                let name = document.replacingOccurrences(of: "/", with: "_") + "-\(block.line)-\(index)"
                if let errors = try compiler.errors(typeChecking: file.text, named: name) {
                    Issue.record("\(block) does not compile \(file.variant):\n\(errors)")
                }
            }
        }
    }
}
