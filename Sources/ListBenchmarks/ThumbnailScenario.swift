import CGtk
import Foundation
import GtkKit
import ListViewManager
import ListViewerKit

/// The viewer's grid scrolled down a folder of N photos at a steady speed
/// (`thumbnails_prefetch_S`, and `thumbnails_no_prefetch_S` with prefetching off; S pixels
/// a frame; `thumbnails_large_…`: photos of 2048 × 1536 rather than 640 × 480): once the first screen shows its thumbnails, the grid moves S pixels at each
/// frame for ten seconds (or to the end), and each frame painted counts the image tiles in
/// view that show no thumbnail yet (their picture still the image icon).
enum ThumbnailScenario {
    @MainActor
    static func run(_ scenario: String, count: Int) -> Measurement? {
        guard GtkScenarios.openDisplay(), let speed = Double(scenario.split(separator: "_").last ?? "") else { return nil }
        let folder = photoFolder(count, large: scenario.contains("large"))
        let application = Application(id: "io.github.listviewmanager.ListBenchmarks", allowsMultipleInstances: true)
        g_application_register(gtkCast(application.gtkApplication, to: GApplication.self), nil, nil)
        let viewer = ViewerWindow(application: application)
        viewer.setViewMode(.grid)
        let grid = viewer.gridManager
        if scenario.contains("no_prefetch") { grid.configuration.prefetchCount = 0 }
        viewer.present()
        viewer.openDirectory(folder)
        MainLoop.run { viewer.isLoaded }
        // The first screen, whole (its last tiles are bound a frame or two after the others).
        let firstScreen = { let (shown, missing) = tilesInView(grid); return !shown.isEmpty && missing.isEmpty }
        MainLoop.poll(until: firstScreen)
        GtkScenarios.waitForFrames(grid.view, 10)
        MainLoop.poll(until: firstScreen)

        let clock = gtk_widget_get_frame_clock(grid.view)!
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(grid.view))!
        var frames = 0, framesMissing = 0, atEnd = false
        var shownTiles = Set<Int>(), missedTiles = Set<Int>()
        let update = Signal.connect(UnsafeMutableRawPointer(clock), "update") {
            let end = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            gtk_adjustment_set_value(adjustment, min(end, gtk_adjustment_get_value(adjustment) + speed))
            atEnd = gtk_adjustment_get_value(adjustment) >= end
        }
        let painted = Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
            frames += 1
            let (shown, missing) = tilesInView(grid)
            shownTiles.formUnion(shown)
            missedTiles.formUnion(missing)
            if !missing.isEmpty { framesMissing += 1 }
        }
        gdk_frame_clock_begin_updating(clock)  // an update phase at every frame
        let start = ContinuousClock.now
        MainLoop.run {
            gtk_widget_queue_draw(grid.view)  // a frame at each tick, whatever changed
            return frames >= 600 || atEnd
        }
        let elapsed = milliseconds(of: ContinuousClock.now - start)
        gdk_frame_clock_end_updating(clock)
        g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), update)
        g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), painted)
        viewer.close()
        MainLoop.drain()
        return Measurement(scenario: scenario, n: count, wallMilliseconds: elapsed, extra: [
            ("pixels_per_frame", speed), ("frames", Double(frames)), ("frames_per_second", Double(frames) / elapsed * 1000),
            ("tiles_shown", Double(shownTiles.count)), ("tiles_shown_without_thumbnail", Double(missedTiles.count)),
            ("frames_with_a_tile_without_thumbnail", Double(framesMissing)),
        ])
    }

    /// The image tiles the grid shows at least partly in view now, and those of them that
    /// show no thumbnail (by item).
    @MainActor
    private static func tilesInView(_ grid: SectionedGridViewManager) -> (shown: [Int], missing: [Int]) {
        var shown: [Int] = [], missing: [Int] = []
        grid.forEachItemRowInView { _, indexPath, _, _ in
            guard let tile = grid.row(at: indexPath) as? ImageTile else { return }
            shown.append(indexPath.item)
            if !tile.showsThumbnail { missing.append(indexPath.item) }
        }
        return (shown, missing)
    }

    /// A folder of `count` photos, 640 × 480 JPEG files (2048 × 1536 when `large`) of noise
    /// over a gradient (made once, kept in the temporary directory for the next runs).
    private static func photoFolder(_ count: Int, large: Bool) -> String {
        let (width, height) = large ? (2048, 1536) : (640, 480)
        let folder = NSTemporaryDirectory() + "list-benchmarks-photos-\(count)" + (large ? "-large" : "")
        let done = folder + "/.complete"
        if FileManager.default.fileExists(atPath: done) { return folder }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!, stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        var state: UInt32 = 2_463_534_242  // xorshift: noise, cheaply
        for number in 0..<count {
            for y in 0..<height {
                for x in 0..<width {
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    let noise = UInt8(state & 63)
                    pixels[y * stride + x * 3] = UInt8((x * 255 / width + number) % 192) + noise
                    pixels[y * stride + x * 3 + 1] = UInt8(y * 191 / height) + noise
                    pixels[y * stride + x * 3 + 2] = UInt8(number % 192) + noise
                }
            }
            var error: UnsafeMutablePointer<GError>?
            _ = gdk_pixbuf_savev(pixbuf, folder + String(format: "/photo %05d.jpg", number), "jpeg", nil, nil, &error)
            if let error { g_error_free(error) }
        }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        _ = FileManager.default.createFile(atPath: done, contents: Data())
        return folder
    }
}
