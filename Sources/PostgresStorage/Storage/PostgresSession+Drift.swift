import Foundation
import ModelStorage
import PostgresNIO

extension PostgresSession {
    /// Compares the run at `run` (counted round the runs) with the table, when the log has
    /// no change to the table that the storage has not read: whether they agree (nil when it
    /// could not be told: no runs, or changes to read first). When they do not, the next read
    /// reads every key (the smallest update from the rows shown).
    ///
    /// One statement on a connection of its own (`Use.driftChecks`), which holds no
    /// transaction: its own snapshot.
    func checkForDrift(run: Int) async throws(PostgresStorageError) -> Bool? {
        guard followsLog, let runs = last as? PostgresRuns, let position = logPosition, let placement, !runs.runs.isEmpty else { return nil }
        let index = run % runs.runs.count
        let section = runs.section(ofRun: index)
        let sectionRuns = runs.runs(ofSection: section)
        let sectioned = query.sectionBy != nil
        let range = PostgresPlacement.RunRange(
            section: sectioned ? .some(runs.sectionValues[section]) : nil,
            lower: index == sectionRuns.lowerBound ? nil : runs.runs[index].bound,
            upper: index + 1 < sectionRuns.upperBound ? runs.runs[index + 1].bound : nil,
            lastOfSection: sectioned && index + 1 == sectionRuns.upperBound,
            nextSection: section + 1 < runs.sectionCount ? .some(runs.sectionValues[section + 1]) : .none,
            first: index == 0)
        let expected = runs.runs[index].keys.map(Array.init)
        let statement = placement.driftCheck(of: range, after: position)
        let connection = try await connected(for: .driftChecks)
        let (quiet, keys, outside) = try await mappingErrors {
            try await connection.whileOpen { connection in
                for row in try await connection.send(statement) { return try row.decode((Bool, [Int64], Bool).self) }
                return (false, [], false)
            }
        }
        // Read since: the runs may be others now.
        guard quiet, logPosition == position, (last as? PostgresRuns)?.runs.count == runs.runs.count else { return nil }
        if keys == expected && !outside { return true }
        // A read of the log under way must not bring its position back.
        (logPosition, resyncOwed) = (nil, true)
        return false
    }
}
