import ArgumentParser
import CGtk
import ListViewManager

/// `list-viewer`'s options as swift-argument-parser reads them: the help text, `--version`
/// and the shell completions (`--generate-completion-script bash|zsh|fish`) come from here.
/// `ViewerOptions.parse(raw:)` turns what was read into what to show.
struct ViewerCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-viewer",
        abstract: "Shows a folder, a catalog, or an SQLite or PostgreSQL table as a sectioned list, kept up to date.",
        discussion: """
            With no path, the bundled sample catalog is shown.
              a folder                browse it, grouped by kind; activate a folder to open it
              a .json file            a catalog in the sample's format
              an SQLite file          a table's rows, following the database as it changes
              postgres://USER@HOST/DB a PostgreSQL table's rows, following the server live
                                      (the password comes from PGPASSWORD or ~/.pgpass)
            """,
        version: versionText)

    @Argument(help: ArgumentHelp("A folder, a catalog, an SQLite file or a postgres:// URL.", valueName: "path-or-url"),
              completion: .file())
    var path: String?

    @Option(help: ArgumentHelp("The table to show (needed when the database has several).", valueName: "name"))
    var table: String?

    @Option(name: .customLong("section-by"), help: ArgumentHelp("Groups the rows by the values of this column.", valueName: "column"))
    var sectionBy: String?

    @Option(help: "The view to start in.")
    var view: ViewMode = .list

    @Option(help: ArgumentHelp("Lays the window out left to right or right to left (default: as the language reads).",
                               valueName: "ltr|rtl"))
    var direction: TextDirection?

    @Option(help: ArgumentHelp("Writes a picture of the window once loaded, then exits.", valueName: "file.png"),
            completion: .file(extensions: ["png"]))
    var screenshot: String?
}

extension ViewMode: ExpressibleByArgument {}

extension TextDirection: ExpressibleByArgument {}

extension ViewerCommandLine {
    /// What `--version` prints: the viewer's version and the GTK it runs on.
    static var versionText: String {
        "\(ViewerApp.version) (GTK \(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version()))"
    }
}

extension ViewerApp {
    /// The viewer's version (meson.build's project version; a test checks that they agree).
    public nonisolated static let version = "0.1.0"
}
