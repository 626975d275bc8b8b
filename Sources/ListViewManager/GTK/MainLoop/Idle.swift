import CGtk

/// Runs `action` once, on the GLib main loop, when GTK is done with the work at hand (at
/// high idle priority: before redrawing). The closure is released afterwards.
@MainActor
func whenIdle(_ action: @escaping @MainActor () -> Void) {
    let callback: GSourceFunc = { data in
        MainActor.assumeIsolated { SignalClosure<@MainActor () -> Void>.from(data).action() }
        return 0
    }
    let destroy: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }
    g_idle_add_full(G_PRIORITY_HIGH_IDLE, callback, Unmanaged<AnyObject>.passRetained(SignalClosure(action)).toOpaque(), destroy)
}
