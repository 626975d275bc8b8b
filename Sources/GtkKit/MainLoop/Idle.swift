import CGtk

/// Runs `action` once, on the GLib main loop, when GTK is done with the work at hand (at
/// high idle priority: before redrawing), or, `inBackground`, when the main loop has nothing
/// else to do (default idle priority: after GTK's layouts and frames). The closure is released
/// afterwards.
@MainActor
package func whenIdle(inBackground: Bool = false, _ action: @escaping @MainActor () -> Void) {
    let callback: GSourceFunc = { data in
        let action = UserData<@MainActor () -> Void>.value(data)
        MainActor.assumeIsolated { action() }
        return 0
    }
    g_idle_add_full(inBackground ? G_PRIORITY_DEFAULT_IDLE : G_PRIORITY_HIGH_IDLE, callback, UserData.retained(action), ReleaseUserData.destroyNotify)
}

/// Runs `action` once, on the GLib main loop, `seconds` from now. The closure is released
/// afterwards.
@MainActor
package func after(seconds: UInt32, _ action: @escaping @MainActor () -> Void) {
    let callback: GSourceFunc = { data in
        let action = UserData<@MainActor () -> Void>.value(data)
        MainActor.assumeIsolated { action() }
        return 0
    }
    g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, seconds, callback, UserData.retained(action), ReleaseUserData.destroyNotify)
}
