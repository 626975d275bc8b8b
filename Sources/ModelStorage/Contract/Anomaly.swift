import Foundation
import Synchronization

/// Something that went wrong by the library's conventions without being worth a crash:
/// a bad index path, a missing item, a missing mapping.
///
/// `debugDescription` is long and prefixed (`⚠️ [MemoryStorage] …`); `description` is short
/// enough for analytics. `kind` names the case without its values, for silencing.
public protocol Anomaly: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The case of the anomaly, without its associated values.
    associatedtype Kind: Hashable, Sendable

    /// The case of this anomaly, without its associated values.
    var kind: Kind { get }

    /// What every handler of this anomaly type does unless given its own `anomalyAction`.
    /// Writes `debugDescription` to standard error until replaced.
    static var defaultAction: @Sendable (Self) -> Void { get set }
}

/// Receives the anomalies of one storage or manager and decides what happens to them.
///
/// ```swift
/// storage.anomalyHandler.anomalyAction = { anomaly in logger.warning("\(anomaly)") }
/// storage.anomalyHandler.silence(.reloadItemFailedItemNotFound)
/// storage.anomalyHandler.silence { anomaly in anomaly.description.contains("Draft") }
/// ```
public final class AnomalyHandler<A: Anomaly> {
    /// What is done with each anomaly that is not silenced. By default it calls
    /// `A.defaultAction` as it is at the time of the report.
    public var anomalyAction: (A) -> Void = { A.defaultAction($0) }

    private var silencedKinds: Set<A.Kind> = []
    private var silencingConditions: [(A) -> Bool] = []

    /// Creates a handler that uses the default action.
    public init() {}

    /// Stops reporting every anomaly of this kind, whatever its values.
    public func silence(_ kind: A.Kind) {
        silencedKinds.insert(kind)
    }

    /// Stops reporting the anomalies for which `condition` returns true.
    public func silence(where condition: @escaping (A) -> Bool) {
        silencingConditions.append(condition)
    }

    /// Reports `anomaly` unless it is silenced.
    public func report(_ anomaly: A) {
        guard !silencedKinds.contains(anomaly.kind),
              !silencingConditions.contains(where: { $0(anomaly) }) else { return }
        anomalyAction(anomaly)
    }
}

/// A process-wide default action per anomaly type, safe to read and replace from any thread.
public final class DefaultAnomalyAction<A: Anomaly>: Sendable {
    private let initial: @Sendable (A) -> Void
    /// The action, and whether the app replaced the initial one.
    private let state: Mutex<(action: @Sendable (A) -> Void, isReplaced: Bool)>

    /// Creates the holder with `initial` as the action.
    public init(_ initial: @escaping @Sendable (A) -> Void = { writeToStandardError($0.debugDescription) }) {
        self.initial = initial
        state = Mutex((initial, false))
    }

    /// The current action.
    public var current: @Sendable (A) -> Void {
        get { state.withLock { $0.action } }
        set { state.withLock { $0 = (newValue, true) } }
    }

    /// Whether the current action was set by the app (a library may then send its own
    /// anomalies there rather than to its usual place).
    public var isReplaced: Bool { state.withLock { $0.isReplaced } }

    /// Puts the initial action back.
    public func restore() {
        state.withLock { $0 = (initial, false) }
    }
}

/// Writes `message` and a newline to standard error.
public func writeToStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
