import CGtk
import Foundation
import GRDB
import ListViewManager

extension ViewerWindow {
    /// Shows the rows of a table of the SQLite database at `path`, read a page at a time
    /// and following the database as it changes; a problem (not a database, no such table
    /// or column, rows that cannot be read) is shown in the banner and the list stays as it
    /// was. The file is opened and its schema read off the main thread (a database locked
    /// by another program keeps the window waiting for nothing); another source opened
    /// meanwhile wins. Either way the load ends (`onLoaded` runs) once the first rows are
    /// shown or the problem is, unless a folder is being read meanwhile.
    /// - Parameters:
    ///   - table: the table to show; nil for the database's only table.
    ///   - sectionBy: the column whose values make the sections; nil for one section
    ///     headed by the table's name.
    public func openDatabase(_ path: String, table: String? = nil, sectionBy: String? = nil) {
        guard !isClosed else { return }
        databaseOpens += 1
        let (attempt, generation) = (databaseOpens, loadGeneration)
        Thread.detachNewThread { [weak self] in
            let result = Result { try DatabaseFile.open(path, table: table, sectionBy: sectionBy) }
            Task { @MainActor in
                guard let self, !self.isClosed, attempt == self.databaseOpens, generation == self.loadGeneration else { return }
                self.show(result, of: path)
            }
        }
    }

    /// Shows the table opened (or the problem met) by `openDatabase`.
    private func show(_ result: Result<(DatabaseQueue, TableQuery), Error>, of path: String) {
        show(result.map { database, query in
            let table = LiveTable(path: path, database: database, query: query)
            return (table, "\((path as NSString).lastPathComponent) — \(query.table)")
        })
    }

    /// Shows a table opened by `openDatabase` or `openServerTable` with its title (and
    /// where it is and how it is followed as the title's tooltip), or the problem met
    /// opening it.
    func show(_ result: Result<(table: any FollowedTable, title: String), Error>) {
        let opened: any FollowedTable
        do {
            let title: String
            (opened, title) = try result.get()
            if !searchText.isEmpty { opened.setSearch(searchText) }
            startNewSource()
            sourcePlaces.enter("table \(opened.origin) \(title)")
            details.show(nil)
            showTitle(title, tooltip: opened.origin)
        } catch {
            showProblem("\(error)")
            // The window would otherwise wait for rows that never come (and a screenshot with it).
            if !isLoaded, currentDirectory == nil { finishLoading() }
            return
        }
        // The next read of the table that succeeds takes a read's error away, and only that
        // message (see `FetchErrorInBanner`).
        opened.onError = { [weak self] message in
            guard let self else { return }
            showProblem(message)
            fetchError = .shown
            if !isLoaded { finishLoading() }
        }
        opened.onFirstRows = { [weak self] in
            guard let self else { return }
            guard !isLoaded else {
                // Another source was shown before: the table's place, if it was left at one.
                if let place = sourcePlaces.placeToRestore { activeManager.restore(place) }
                return
            }
            finishLoading()
        }
        // A schema changed: the table view shows the columns there are (sorted by none).
        opened.onColumnsChange = { [weak self, unowned opened] in
            guard let self, opened === followedTable else { return }
            tableManager.setColumns(ViewerTable.columns(of: opened))
            if viewMode == .table { sortTable() }
        }
        opened.onFetch = { [weak self, unowned opened] in
            guard let self else { return }
            if fetchError == .shown {
                hideProblem()
                fetchError = .none
            }
            updateCount()
            showFollowing(opened)
        }
        followedTable = opened
        // One section's header stays when its table is empty; sections of values go with
        // their last row.
        showEmptySections(headers: true, footers: false)
        // The table shows the database table's own columns.
        tableManager.setColumns(ViewerTable.columns(of: opened))
        showContent(opened.rows)
    }

    /// Says in the title's tooltip where `table` is and how its rows follow it
    /// (`FollowedTable.following`).
    func showFollowing(_ table: any FollowedTable) {
        guard table === followedTable else { return }
        showTitle(titleText, tooltip: ([table.origin] + table.following).joined(separator: "\n"))
    }

    /// Stops following the database shown, if any, and gives the list back to `filter`.
    func leaveDatabase() {
        guard let followedTable else { return }
        followedTable.stopObserving()
        self.followedTable = nil
        if fetchError != .none {
            hideProblem()
            fetchError = .none
        }
        tableManager.setColumns(ViewerTable.columns())
        showContent(filter.storage)
    }
}

/// Whether the banner shows a followed database's read error (`FollowedTable.onError`):
/// the next read that succeeds (`onFetch`) takes the message away; or that the server's
/// connection is being made again, until it is. Any other message shown meanwhile resets
/// it to `none`, so the banner never hides what it was not told to.
enum FetchErrorInBanner {
    /// The banner shows no read error.
    case none
    /// The banner shows a read error, until a read succeeds.
    case shown
    /// The banner says the viewer is reconnecting to the server, until it has.
    case reconnecting
}
