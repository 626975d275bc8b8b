import Foundation
@testable import ModelStorage
import TestSupport
import Testing

@Suite("KeyRuns: a paged query's rows in runs, found in O(log runs)")
struct KeyRunsTests {
    /// The same rows as plain arrays: each section's runs, each run's keys, and whether its
    /// keys are read.
    struct Shadow {
        var sections: [(value: Int, runs: [(keys: [Int64], read: Bool)])]

        var flat: [(key: Int64, read: Bool, section: Int, item: Int)] {
            var rows: [(Int64, Bool, Int, Int)] = []
            for (index, section) in sections.enumerated() where section.runs.contains(where: { !$0.keys.isEmpty }) {
                let shown = sections[..<index].filter { $0.runs.contains(where: { !$0.keys.isEmpty }) }.count
                var item = 0
                for run in section.runs {
                    for key in run.keys {
                        rows.append((key, run.read, shown, item))
                        item += 1
                    }
                }
            }
            return rows
        }
    }

    private func check(_ runs: KeyRuns<Int, Int>, _ shadow: Shadow, step: Int) {
        let rows = shadow.flat
        #expect(runs.rowCount == rows.count, "step \(step)")
        for position in rows.indices {
            let row = rows[position]
            #expect(runs.key(at: position) == (row.read ? row.key : nil), "step \(step), position \(position)")
            let indexPath = IndexPath(item: row.item, section: row.section)
            #expect(runs.indexPath(of: position) == indexPath, "step \(step), position \(position)")
            #expect(runs.position(of: indexPath) == position)
        }
        #expect(runs.key(at: rows.count) == nil)
        #expect(runs.indexPath(of: -1) == nil)
    }

    @Test("Random inserts, removals, reads, splits and new sections match plain arrays")
    func matchesArrays() {
        var random = SeededGenerator(seed: 35)
        var shadow = Shadow(sections: (0..<3).map { section in
            (section * 10, (0..<4).map { run in ((0..<Int64(20)).map { Int64(section * 10_000 + run * 100) + $0 }, run % 2 == 0) })
        })
        func build() -> KeyRuns<Int, Int> {
            KeyRuns(sections: shadow.sections.map { section in
                (section.value, section.runs.map { $0.read ? .init(bound: 0, keys: $0.keys) : .init(bound: 0, count: $0.keys.count) })
            })
        }
        var runs = build()
        var next: Int64 = 1_000_000
        check(runs, shadow, step: -1)
        for step in 0..<3000 {
            // The runs as KeyRuns numbers them: every run of every section, in order.
            let places = shadow.sections.indices.flatMap { section in shadow.sections[section].runs.indices.map { (section, $0) } }
            let (section, run) = places[Int.random(in: 0..<places.count, using: &random)]
            let index = places.firstIndex { $0 == (section, run) }!
            let keys = shadow.sections[section].runs[run].keys
            switch Int.random(in: 0..<11, using: &random) {
            case 10 where keys.count >= 3:
                // Rows of two runs removed together (each run packed again once).
                let other = places[Int.random(in: 0..<places.count, using: &random)]
                let otherIndex = places.firstIndex { $0 == other }!
                let offsets = Array(Set((0..<2).map { _ in Int.random(in: 0..<keys.count, using: &random) }))
                let otherOffsets = other == (section, run) || shadow.sections[other.0].runs[other.1].keys.isEmpty ? []
                    : [Int.random(in: 0..<shadow.sections[other.0].runs[other.1].keys.count, using: &random)]
                runs.remove(offsets.map { (index, $0) } + otherOffsets.map { (otherIndex, $0) })
                for offset in offsets.sorted(by: >) { shadow.sections[section].runs[run].keys.remove(at: offset) }
                for offset in otherOffsets { shadow.sections[other.0].runs[other.1].keys.remove(at: offset) }
            case 0...3:
                let offset = Int.random(in: 0...keys.count, using: &random)
                runs.insert(next, intoRun: index, at: offset)
                shadow.sections[section].runs[run].keys.insert(next, at: offset)
                next += 1
            case 4...6 where !keys.isEmpty:
                let offset = Int.random(in: 0..<keys.count, using: &random)
                let removed = runs.remove(fromRun: index, at: offset)
                #expect(removed == (shadow.sections[section].runs[run].read ? keys[offset] : nil))
                shadow.sections[section].runs[run].keys.remove(at: offset)
            case 7:
                if shadow.sections[section].runs[run].read {
                    runs.forgetKeys(ofRun: index)
                    shadow.sections[section].runs[run].read = false
                } else {
                    runs.setKeys(keys, ofRun: index)
                    shadow.sections[section].runs[run].read = true
                }
            case 8 where keys.count >= 2:
                let offset = Int.random(in: 1..<keys.count, using: &random)
                runs.split(run: index, at: offset, bound: 0)
                let read = shadow.sections[section].runs[run].read
                shadow.sections[section].runs[run].keys = Array(keys[..<offset])
                shadow.sections[section].runs.insert((Array(keys[offset...]), read), at: run + 1)
            case 9:
                let at = Int.random(in: 0...shadow.sections.count, using: &random)
                runs.insertSection(Int(next), at: at, bound: 0)
                shadow.sections.insert((Int(next), [([], true)]), at: at)
                next += 1
            default:
                runs.removeEmptyRuns()
                shadow.sections = shadow.sections.compactMap { section in
                    let kept = section.runs.filter { !$0.keys.isEmpty }
                    return kept.isEmpty ? nil : (section.value, kept)
                }
            }
            if step % 50 == 0 {
                runs.removeEmptyRuns()
                shadow.sections = shadow.sections.compactMap { section in
                    let kept = section.runs.filter { !$0.keys.isEmpty }
                    return kept.isEmpty ? nil : (section.value, kept)
                }
                check(runs, shadow, step: step)
                #expect(runs.sectionValues == shadow.sections.map(\.value))
                #expect((0..<runs.sectionCount).map(runs.count(inSection:)) == shadow.sections.map { $0.runs.reduce(0) { $0 + $1.keys.count } })
            }
        }
    }

    @Test("A batch moves rows out of and into the same runs, inserts and deletes, each run packed again once")
    func appliesABatch() throws {
        var runs = KeyRuns<Int, Int>(sections: [(0, [.init(bound: 0, keys: Array(1...10)), .init(bound: 0, keys: Array(11...20))])])
        let places = [
            // 3 goes from the first run to the second, 15 the other way; 100 arrives; 7 leaves.
            RunPlace(key: 3, oldRun: 0, newRun: 1, newOffset: 5, kept: false, isRow: true),
            RunPlace(key: 15, oldRun: 1, newRun: 0, newOffset: 0, kept: false, isRow: true),
            RunPlace(key: 100, oldRun: nil, newRun: 0, newOffset: 4, kept: false, isRow: true),
            RunPlace(key: 7, oldRun: 0, newRun: nil, newOffset: nil, kept: false, isRow: false),
            RunPlace(key: 9, oldRun: 0, newRun: 0, newOffset: nil, kept: true, isRow: true),
        ]
        let applied = runs.apply(places)
        let (update, positions) = try #require(applied)
        #expect(runs.runs.map { Array($0.keys ?? []) } == [[15, 1, 2, 4, 100, 5, 6, 8, 9, 10], [11, 12, 13, 14, 16, 3, 17, 18, 19, 20]])
        #expect(positions == [15: 0, 100: 4, 3: 15, 9: 8])
        #expect(!update.isEmpty)
        // A row said to be in a run whose keys are not read: nothing changes, every key is read again.
        var unread = KeyRuns<Int, Int>(sections: [(0, [.init(bound: 0, count: 10), .init(bound: 0, keys: Array(11...20))])])
        let before = unread.runs.map(\.count)
        let refused = unread.apply([RunPlace(key: 100, oldRun: nil, newRun: 0, newOffset: 1, kept: false, isRow: true)])
        #expect(refused == nil)
        #expect(unread.runs.map(\.count) == before)
    }

    @Test("A position's run is found in O(log runs), and a run unread costs no key")
    func locatesAcrossUnreadRuns() {
        // 1,000 runs of 10,000 rows: ten million rows, keys read for one run only.
        var runs = KeyRuns<String, Int>(sections: [("all", (0..<1000).map { KeyRuns.Run(bound: $0, count: 10_000) })])
        runs.setKeys((0..<10_000).map { 7_000_000 + Int64($0) }, ofRun: 700)
        #expect(runs.rowCount == 10_000_000)
        #expect(runs.locate(7_000_123)! == (run: 700, offset: 123))
        #expect(runs.key(at: 7_000_123) == 7_000_123)
        #expect(runs.key(at: 6_999_999) == nil, "unread")
        runs.remove(fromRun: 3, at: 0)
        #expect(runs.key(at: 6_999_999) == 7_000_000, "a row removed before shifts the rows after")
        #expect(runs.offset(of: 7_000_500, inRun: 700) == 500)
    }

    @Test("The first position whose key matches, from any start either way round, is the one a plain scan finds")
    func firstPositionMatchesAScan() throws {
        var random = SeededGenerator(seed: 37)
        // Runs of 1 to 300 rows, some unread (passed over), in three sections.
        let sections: [(value: Int, runs: [KeyRuns<Int, Int>.Run])] = (0..<3).map { section in
            (section, (0..<6).map { run in
                let keys = (0..<Int64.random(in: 1...300, using: &random)).map { Int64(section * 100_000 + run * 1_000) + $0 }
                return run == 2 ? .init(bound: 0, count: keys.count) : .init(bound: 0, keys: keys)
            })
        }
        let runs = KeyRuns(sections: sections)
        let list = try KeyList(counts: [(0, runs.rowCount)], keys: (0..<runs.rowCount).map { runs.key(at: $0) ?? -1 })
        let count = runs.rowCount
        for _ in 0..<200 {
            let matches = Set((0..<Int.random(in: 0...6, using: &random)).compactMap { _ in runs.key(at: Int.random(in: 0..<count, using: &random)) })
            let start = Int.random(in: 0..<count, using: &random), forward = Bool.random(using: &random)
            let scanned = (0..<count).map { forward ? (start + $0) % count : (start - $0 + count) % count }
                .first { runs.key(at: $0).map(matches.contains) == true }
            #expect(runs.firstPosition(from: start, forward: forward, where: matches.contains) == scanned, "from \(start), forward \(forward)")
            #expect(list.firstPosition(from: start, forward: forward, where: matches.contains) == scanned)
        }
    }
}
