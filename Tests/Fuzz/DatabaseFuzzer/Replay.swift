import TestSupport

/// Runs libFuzzer in the fuzzing build; otherwise replays the inputs in the files and folders
/// given.
@main
enum Replay {
    static func main() {
        runFuzzTarget(DatabaseFuzzer.run)
    }
}
