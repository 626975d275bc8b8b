import Foundation
import ListViewerKit

// list-viewer: the sample viewer (see `list-viewer --help`).
// The arguments' own bytes: a path need not be UTF-8 (`CommandLine.arguments` would
// turn such bytes into U+FFFD and name another path).
let arguments = (0..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
}
let status = MainActor.assumeIsolated { ViewerApp.main(rawArguments: arguments) }
exit(status)
