import Foundation
import ListViewerKit

// list-viewer: the sample viewer (see `list-viewer --help`).
let status = MainActor.assumeIsolated { ViewerApp.main(arguments: CommandLine.arguments) }
exit(status)
