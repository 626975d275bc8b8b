import Foundation
import TestSupport

/// Type-checks Swift files against the package's modules as `swift build` left them, in
/// seconds: the compiler and the search paths are those SwiftPM used for this test target,
/// which depends on every module the documentation imports. Swift 6, warnings as errors.
struct SnippetCompiler: Sendable {
    /// The compiler that built the modules.
    let swiftc: String
    /// SwiftPM's search paths for this target: `-I`, `-Xcc` (C module maps, GTK's headers),
    /// `-module-cache-path`, `-target`.
    let searchArguments: [String]
    /// Where the context module and the files checked are written (in the build folder,
    /// emptied at each run).
    let directory: URL

    enum Failure: Error, CustomStringConvertible {
        case noBuildManifest(String)
        case noCommand(String)
        case contextDoesNotCompile(String)

        var description: String {
            switch self {
            case .noBuildManifest(let path): return "no SwiftPM build manifest at \(path): run `swift build --build-tests` first"
            case .noCommand(let module): return "the build manifest has no compile command for \(module)"
            case .contextDoesNotCompile(let errors): return "DocumentationContext.swift does not compile:\n\(errors)"
            }
        }
    }

    /// The compiler of the build this test binary belongs to (`.build/<triple>/debug/…`,
    /// whose manifest is `.build/debug.yaml`), with the `DocumentationContext` module built
    /// from `context`.
    static func forThisBuild(context: URL) throws -> SnippetCompiler {
        // The folder of the built products (the test binary's): `Modules` holds the modules.
        let binary = URL(fileURLWithPath: ChildProcess.built("Modules")).deletingLastPathComponent()
        let manifest = binary.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(binary.lastPathComponent + ".yaml")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { throw Failure.noBuildManifest(manifest.path) }
        let command = try compileCommand(of: "DocumentationTests", in: text)
        let directory = binary.appendingPathComponent("DocumentationTests.build/code-blocks")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let compiler = SnippetCompiler(swiftc: command[0], searchArguments: searchArguments(of: command) + ["-I", directory.path],
                                       directory: directory)
        let built = try compiler.run(["-emit-module", "-parse-as-library", "-module-name", "DocumentationContext",
                                      "-emit-module-path", directory.appendingPathComponent("DocumentationContext.swiftmodule").path, context.path])
        guard built.status == 0 else { throw Failure.contextDoesNotCompile(built.errors + built.output) }
        return compiler
    }

    /// Type-checks `text` as the main file of a program; returns the compiler's errors, or
    /// nil when it compiles.
    func errors(typeChecking text: String, named name: String) throws -> String? {
        let file = directory.appendingPathComponent(name + ".swift")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let result = try run(["-typecheck", file.path])
        return result.status == 0 ? nil : result.errors + result.output
    }

    private func run(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(swiftc, searchArguments + ["-swift-version", "6", "-warnings-as-errors"] + arguments, in: directory)
    }

    /// The arguments of the command compiling `module` in an llbuild manifest (`args:` lines
    /// are JSON arrays).
    private static func compileCommand(of module: String, in manifest: String) throws -> [String] {
        for line in manifest.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("args: ["), trimmed.contains("\"-module-name\",\"\(module)\"") else { continue }
            if let arguments = try? JSONDecoder().decode([String].self, from: Data(trimmed.dropFirst("args: ".count).utf8)) {
                return arguments
            }
        }
        throw Failure.noCommand(module)
    }

    /// The search paths of a compile command: what finds modules and C headers, nothing that
    /// changes the language or opens the package's internals.
    private static func searchArguments(of command: [String]) -> [String] {
        var kept: [String] = []
        var index = command.startIndex
        while index < command.endIndex {
            let argument = command[index]
            if ["-I", "-Xcc", "-module-cache-path", "-target"].contains(argument), index + 1 < command.endIndex {
                kept += [argument, command[index + 1]]
                index += 2
                continue
            }
            if argument.hasPrefix("-I") { kept.append(argument) }
            index += 1
        }
        return kept
    }
}
