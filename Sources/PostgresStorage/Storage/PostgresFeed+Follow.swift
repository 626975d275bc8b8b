import Foundation
import ModelStorage

extension PostgresFeed {
    /// Listens for the trigger's notifications on the table, or polls when it has none, and
    /// reads the keys once it does either: the first read, or after a reconnection (or a
    /// trigger dropped or installed) what changed meanwhile, in one update. When the
    /// connection is lost, connects again after a growing wait (0.1 s doubling up to
    /// `longestReconnectionWait`); the first failure to reach the server is also an
    /// error told. Any other error ends the following (told, and `State.stopped`).
    func follow() {
        followGeneration += 1
        let (session, table, pollInterval, longestWait, generation) =
            (session, query.table, key.pollInterval, key.longestReconnectionWait, followGeneration)
        let (lookInterval, replicaLookInterval) = (key.wakeUp.lookInterval, PostgresQueryStorage<Record>.replicaLookInterval)
        /// Runs `body` on the feed's queue, if the feed lives and this follower is still the
        /// current one (the follower holds the feed weakly: a feed no storage holds ends).
        let apply: @Sendable (@escaping @Sendable (PostgresFeed) -> Void) -> Void = { [weak self] body in
            self?.schedule { feed in
                guard feed.followGeneration == generation else { return }
                body(feed)
            }
        }
        if let interval = key.driftCheckInterval { checkForDrift(every: interval, generation: generation) }
        follower = Task {
            var attempt = 0
            // Whether notifications come (a LISTEN not kept is found by the log's looks).
            var heard = true
            var reached = false
            while !Task.isCancelled {
                do throws(PostgresStorageError) {
                    let live = try await session.hasChangeTrigger(table: table)
                    (attempt, reached) = (0, true)
                    await session.setFollowsLog(live)
                    // A replica takes no LISTEN: its log is looked in instead.
                    let standby = await session.isStandby
                    let lookEvery = lookInterval ?? (standby || !heard ? replicaLookInterval : nil)
                    if live, let interval = lookEvery {
                        apply { feed in
                            feed.setState(.live, wakeUp: .pollLog(every: interval))
                            feed.readKeys(after: .zero)
                        }
                        try await session.pollLog(of: table, every: interval) {
                            apply { feed in feed.readKeys(after: .zero) }
                        }
                    } else if live {
                        // Notifications that did not come: the server takes LISTEN but does
                        // not keep it (PgBouncer's transaction pooling). From then on, the
                        // log is looked in.
                        heard = try await !session.listen(on: PostgresChangeLog.channel, checkingTriggerOf: table, every: pollInterval) {
                            // Every commit from now on is told: what came before is read now.
                            apply { feed in
                                feed.setState(.live, wakeUp: .listen)
                                feed.readKeys(after: .zero)
                            }
                        } _: { payload in
                            guard payload == table else { return }
                            apply { feed in feed.readForCommit() }
                        }
                    } else {
                        apply { feed in
                            feed.setState(.polling)
                            feed.readKeys(after: .zero)
                        }
                        // Until the trigger is installed (then listened to).
                        while !Task.isCancelled {
                            try? await Task.sleep(for: pollInterval)
                            if try await session.hasChangeTrigger(table: table) { break }
                            apply { feed in feed.readKeys(after: .zero) }
                        }
                    }
                } catch where error.isConnectionProblem {
                    guard !Task.isCancelled else { return }
                    // Another connection may keep a LISTEN: found out again in two looks.
                    heard = true
                    attempt += 1
                    let (tries, firstFailure) = (attempt, !reached && attempt == 1)
                    apply { feed in
                        if firstFailure { feed.report(error, unreachable: true) }
                        feed.setState(.reconnecting(attempt: tries))
                    }
                    try? await Task.sleep(for: min(.milliseconds(100) * (1 << min(attempt - 1, 10)), longestWait))
                } catch {
                    apply { feed in
                        feed.report(error, stopping: true)
                        feed.setState(.stopped)
                    }
                    return
                }
            }
        }
    }

    /// Compares a run with the table every `interval`, one run after another (when the
    /// table follows the log and has no change the feed has not read); on a difference,
    /// reads every key, which shows the smallest update from the rows shown.
    private func checkForDrift(every interval: Duration, generation: Int) {
        let session = session
        driftChecker = Task { [weak self] in
            var run = 0
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                // Connection problems and other errors are the follower's to report.
                guard let agrees = try? await session.checkForDrift(run: run) else { continue }
                run += 1
                if !agrees {
                    self?.schedule { feed in
                        guard feed.followGeneration == generation else { return }
                        feed.driftFound()
                    }
                }
            }
        }
    }
}
