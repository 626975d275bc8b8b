import Foundation

/// Calls `body` with `posix_spawn` attributes under which a child starts as it would from a
/// shell: no signal blocked, and every signal handled the default way.
///
/// Without them a child inherits the spawning thread's signal mask and the signals this
/// process ignores: spawned from a Dispatch worker (which blocks most signals), `pgbench -T 60`
/// never received the SIGALRM that ends its run, and ran on.
public func withShellLikeSpawnAttributes<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) throws -> Result) rethrows -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return try body(&attributes)
}
