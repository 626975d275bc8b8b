#if !FUZZING
import TestSupport

/// Built without libFuzzer (`-D FUZZING`): replays the inputs in the files and folders given.
@main
enum Replay {
    static func main() {
        replayFuzzInputs(Array(CommandLine.arguments.dropFirst()), StorageFuzzer.run)
    }
}
#endif
