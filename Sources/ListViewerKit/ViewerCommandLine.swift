import ArgumentParser
import CGtk
import ListViewManager

/// `list-viewer`'s options as swift-argument-parser reads them: the help text, `--version`
/// and the shell completions (`--generate-completion-script bash|zsh|fish`) come from here.
/// `ViewerOptions.parse(raw:)` turns what was read into what to show.
///
/// Its own texts are in the user's language (swift-argument-parser's headings and errors
/// stay English), read each time, as the language may change (in the tests).
struct ViewerCommandLine: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "list-viewer",
            abstract: tr("Shows a folder, a catalog, or an SQLite or PostgreSQL table as a sectioned list, kept up to date."),
            discussion: discussion,
            version: versionText)
    }

    @Argument(help: ArgumentHelp(tr("A folder, a catalog, an SQLite file or a postgres:// URL."), valueName: "path-or-url"),
              completion: .file())
    var path: String?

    @Option(help: ArgumentHelp(tr("The table to show (needed when the database has several)."), valueName: "name"))
    var table: String?

    @Option(name: .customLong("section-by"), help: ArgumentHelp(tr("Groups the rows by the values of this column."), valueName: "column"))
    var sectionBy: String?

    @Flag(name: .customLong("install-change-log"),
          help: ArgumentHelp(tr("Installs a change log on the table (triggers and a log table in the database), so that each commit is read from it, not by reading every key.")))
    var installChangeLog = false

    @Option(help: ArgumentHelp(tr("The view to start in.")))
    var view: ViewMode = .list

    @Option(help: ArgumentHelp(tr("Lays the window out left to right or right to left (default: as the language reads)."),
                               valueName: "ltr|rtl"))
    var direction: TextDirection?

    @Option(help: ArgumentHelp(tr("Writes a picture of the window once loaded, then exits."), valueName: "file.png"),
            completion: .file(extensions: ["png"]))
    var screenshot: String?

    /// What a path can be, in two columns.
    private static var discussion: String {
        let kinds = [
            (tr("a folder"), tr("browse it, grouped by kind; activate a folder to open it")),
            (tr("a .json file"), tr("a catalog in the sample's format")),
            (tr("an SQLite file"), tr("a table's rows, following the database as it changes")),
            ("postgres://USER@HOST/DB", tr("a PostgreSQL table's rows, following the server live")),
            ("", tr("(the password comes from PGPASSWORD or ~/.pgpass)")),
        ]
        let width = kinds.map(\.0.count).max()! + 1
        return tr("With no path, the bundled sample catalog is shown.") + "\n"
            + kinds.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
    }
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
