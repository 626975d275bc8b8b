import CGtk
import Foundation
import ListViewManager

extension ViewerWindow {
    /// Shows the rows of a table of the SQLite database at `path`, following the
    /// database as it changes; a problem (not a database, no such table or column, rows
    /// that cannot be read) is shown in the banner and the list stays as it was. Either
    /// way the load ends (`onLoaded` runs) unless a folder is being read meanwhile.
    /// - Parameters:
    ///   - table: the table to show; nil for the database's only table.
    ///   - sectionBy: the column whose values make the sections; nil for one section
    ///     headed by the table's name.
    public func openDatabase(_ path: String, table: String? = nil, sectionBy: String? = nil) {
        guard !isClosed else { return }
        let opened: LiveTable
        do {
            opened = try LiveTable(path: path, table: table, sectionBy: sectionBy)
            if !searchText.isEmpty { try opened.setSearch(searchText) }
        } catch {
            showProblem("\(error)")
            // The window would otherwise wait for rows that never come (and a screenshot with it).
            if !isLoaded, currentDirectory == nil { finishLoading() }
            return
        }
        startNewSource()
        details.show(nil)
        showTitle("\((path as NSString).lastPathComponent) — \(opened.query.table)", tooltip: path)
        // The next fetch that reads the table again takes a fetch's error away, and only
        // that message (see `FetchErrorInBanner`).
        opened.onError = { [weak self] message in
            self?.showProblem(message)
            self?.fetchError = .reported
        }
        opened.onFetch = { [weak self] in
            guard let self else { return }
            switch fetchError {
            case .reported: fetchError = .shown
            case .shown:
                hideProblem()
                fetchError = .none
            case .none: break
            }
            updateCount()
        }
        liveTable = opened
        // One section's header stays when its table is empty; sections of values go with
        // their last row.
        showEmptySections(headers: true, footers: false)
        // The table shows the database table's own columns.
        tableManager.setColumns(ViewerTable.columns(of: opened.query))
        showContent(opened.storage)
        finishLoading()
    }

    /// Stops following the database shown, if any, and gives the list back to `filter`.
    func leaveDatabase() {
        guard let liveTable else { return }
        liveTable.stopObserving()
        self.liveTable = nil
        if fetchError != .none {
            hideProblem()
            fetchError = .none
        }
        tableManager.setColumns(ViewerTable.columns())
        showContent(filter.storage)
    }
}

/// Where a followed database's fetch error stands in the banner. A fetch that fails is
/// reported (`LiveTable.onError`), then counted as a fetch (`onFetch`) in the same delivery:
/// `reported` lets that `onFetch` pass; the next one, a fetch that read the table again,
/// takes the message away. Any other message shown meanwhile resets it to `none`, so a
/// fetch never hides what it did not show.
enum FetchErrorInBanner {
    /// The banner shows no fetch error.
    case none
    /// A fetch error was just shown; its own `onFetch` is still to come.
    case reported
    /// The banner shows a fetch error, until a fetch succeeds.
    case shown
}
