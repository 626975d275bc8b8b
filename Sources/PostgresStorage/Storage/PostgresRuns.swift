import Foundation
import ModelStorage
import PostgresNIO

/// A PostgreSQL query's rows as runs: sections by the section column's value as text (nil
/// for NULL, and for the one section of a query without sections), runs bounded by a value
/// of the query's whole order, as text (`PostgresListQuery.orderTerms`).
typealias PostgresRuns = KeyRuns<String?, [String?]>

extension KeyRuns where SectionValue == String?, Bound == [String?] {
    /// The runs of `query`'s rows (each section's first row, then every `runSize`th, starts
    /// a run), their keys read, in the transaction open on `connection`.
    static func read(_ query: PostgresListQuery, runSize: Int, on connection: PostgresConnection) async throws -> PostgresRuns {
        let collected = RunCollector(sectioned: query.sectionBy != nil)
        try await connection.send(query.keysAndBoundsQuery(runSize: runSize).query) { row in try collected.add(row) }
        return PostgresRuns(sections: collected.sections())
    }
}

/// Collects the rows of `keysAndBoundsQuery` into runs as they arrive, on the connection's
/// thread (one row at a time, none held).
private final class RunCollector: @unchecked Sendable {
    private let sectioned: Bool
    private var done: [(value: String?, runs: [PostgresRuns.Run])] = []
    private var keys: [Int64] = []
    private var bound: [String?]?

    init(sectioned: Bool) {
        self.sectioned = sectioned
    }

    func add(_ row: PostgresRow) throws {
        let (key, starts) = try row.decode((Int64, String?).self)
        if let starts {
            endRun()
            bound = try JSONDecoder().decode([String?].self, from: Data(starts.utf8))
        }
        keys.append(key)
    }

    /// The sections and their runs, the last run ended.
    func sections() -> [(value: String?, runs: [PostgresRuns.Run])] {
        endRun()
        return done
    }

    private func endRun() {
        guard let bound else { return }
        let run = PostgresRuns.Run(bound: bound, keys: keys)
        let value = sectioned ? bound[0] : nil
        if let last = done.indices.last, done[last].value == value {
            done[last].runs.append(run)
        } else {
            done.append((value, [run]))
        }
        (keys, self.bound) = ([], nil)
    }
}
