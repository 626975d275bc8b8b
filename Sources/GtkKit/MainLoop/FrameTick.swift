import CGtk

/// Runs `action` before each frame `widget` draws, with the frame's time (microseconds),
/// until it answers false or the returned id goes to `gtk_widget_remove_tick_callback`;
/// the closure is released then.
@MainActor
@discardableResult
package func everyFrame(of widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor (_ frameTime: Int) -> Bool) -> UInt32 {
    let tick: GtkTickCallback = { _, clock, data in
        let action = UserData<@MainActor (Int) -> Bool>.value(data)
        let frameTime = gdk_frame_clock_get_frame_time(clock)
        return MainActor.assumeIsolated { action(frameTime) } ? 1 : 0
    }
    return gtk_widget_add_tick_callback(widget, tick, UserData.retained(action), ReleaseUserData.destroyNotify)
}
