import Foundation

/// One line of the benchmark report.
struct Measurement {
    var scenario: String
    var impl = "swift"
    var n: Int
    var wallMilliseconds: Double
    var peakResidentMegabytes: Double = residentMegabytes()
    /// Scenario-specific figures (splices emitted, bytes per item, …).
    var extra: [(String, Double)] = []

    /// `{"scenario":…, "impl":…, "n":…, "wall_ms":…, "peak_rss_mb":…, …}`
    var json: String {
        var fields = [
            "\"scenario\":\"\(scenario)\"", "\"impl\":\"\(impl)\"", "\"n\":\(n)",
            "\"wall_ms\":\(format(wallMilliseconds))", "\"peak_rss_mb\":\(format(peakResidentMegabytes))",
        ]
        fields += extra.map { "\"\($0.0)\":\(format($0.1))" }
        return "{" + fields.joined(separator: ", ") + "}"
    }
}

private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.4f", value)
}

/// Milliseconds taken by `body`.
func milliseconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    return milliseconds(of: ContinuousClock.now - start)
}

/// `duration` in milliseconds.
func milliseconds(of duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// Makes glibc map every allocation of 128 KiB or more on its own and unmap it when freed
/// (it otherwise raises that threshold as large blocks are freed, and reuses resident
/// memory), so that resident-memory deltas of large arrays are exact.
func pinMallocMapThreshold() {
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
    let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in malloc.h
    _ = mallopt(mmapThreshold, 128 * 1024)
}

/// Hands the memory glibc holds in free blocks back to the system (`malloc_trim`), so that
/// a resident-memory delta also counts the freed blocks a scenario reuses, which an earlier
/// scenario left resident.
func releaseFreedMemory() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}

/// The process's peak resident memory so far, in MiB (VmHWM).
func peakResidentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kilobytes / 1024
}

/// The process's resident memory now, in MiB (from /proc/self/statm).
func residentMegabytes() -> Double {
    Double(residentBytes()) / 1_048_576
}

/// The process's resident memory now, in bytes.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Runs the main run loop until `condition` holds: false when `limit` seconds pass first.
func runMainLoop(until condition: () -> Bool, seconds limit: Double = 600) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while !condition() {
        guard Date() < deadline else { return false }
        RunLoop.main.run(until: Date().addingTimeInterval(0.001))
    }
    return true
}
