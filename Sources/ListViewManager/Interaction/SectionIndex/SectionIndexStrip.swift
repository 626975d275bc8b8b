import CGtk
import CGtkShims
import GtkKit

/// The strip of section index titles along the side of a list (UIKit's section index, a
/// fast scroller). Pressing a title, and moving the pointer along the strip with the button
/// down, picks titles; with the keyboard focus, Up and Down pick the previous and next
/// title, Page Up and Page Down five at a time, Home and End the first and last. Screen
/// readers read it as a vertical slider named "Section index" whose value is the title
/// picked, or that of the section at the top of the list; setting the value picks a title.
///
/// The titles are drawn, not made into widgets: a list may have thousands of sections. When
/// they do not all fit, the strip shows as many lines as fit, a title and a dot in turn (as
/// UIKit does), and the pointer reaches each title at its share of the strip's height.
@MainActor
final class SectionIndexStrip {
    private let areaReference: ObjectReference<UnsafeMutablePointer<GtkWidget>>
    /// The strip's widget (a drawing area).
    var area: UnsafeMutablePointer<GtkWidget> { areaReference.pointer }
    /// The titles, in order.
    private(set) var titles: [String] = []
    /// The title highlighted: the one picked, or that of the section at the top of the list.
    private(set) var current: Int?
    /// Where the pointer pressed the strip, while its button is down.
    private(set) var pressedAt: Double?
    /// The room on each side of the titles, in pixels.
    private static let margin: Int32 = 6
    /// Called with each title the user picks.
    private let picked: @MainActor (Int) -> Void

    /// A strip calling `picked` with the index of each title the user picks.
    init(picked: @escaping @MainActor (Int) -> Void) {
        self.picked = picked
        // A screen reader setting the slider's value picks that title.
        let reference = WeakReference<SectionIndexStrip>()
        areaReference = ObjectReference(sinking: cgtk_shims_slider_area_new(tr("Section index"), { value, data in
            MainActor.assumeIsolated {
                // Any value a program on the accessibility bus sends: checked before it is made an Int.
                guard let strip = UserData<WeakReference<SectionIndexStrip>>.value(data).object,
                      value >= -0.5, value < Double(strip.titles.count) - 0.5 else { return 0 }
                strip.pick(Int(value.rounded()))
                return 1
            }
        }, UserData.retained(reference), ReleaseUserData.destroyNotify)!)
        RowStyle.install()
        gtk_widget_add_css_class(area, "section-index")
        gtk_widget_add_css_class(area, "view")
        gtk_widget_set_focus_on_click(area, 0)
        gtk_widget_set_visible(area, 0)
        reference.object = self
        let drawn = UserData.retained(WeakReference(self))
        gtk_drawing_area_set_draw_func(gtkCast(area, to: GtkDrawingArea.self), { _, cairo, width, height, data in
            MainActor.assumeIsolated {
                UserData<WeakReference<SectionIndexStrip>>.value(data).object?.draw(cairo, width: Double(width), height: Double(height))
            }
        }, drawn, ReleaseUserData.destroyNotify)
        listenToThePointer()
        listenToKeys()
        // The titles' size in the font the strip has in its window (titles may come before).
        Signal.connect(UnsafeMutableRawPointer(area), "realize") { [weak self] in self?.measure() }
    }

    /// Shows `titles` (hiding the strip when there are none), highlighting none.
    func show(_ titles: [String]) {
        guard titles != self.titles else { return }
        self.titles = titles
        current = nil
        gtk_widget_set_visible(area, titles.isEmpty ? 0 : 1)
        measure()
        announce()
        gtk_widget_queue_draw(area)
    }

    /// Sizes the strip for its titles in its font: as wide as the widest title and a margin
    /// (the strip's minimum width is 0: beside a list, it never makes the list's minimum
    /// wider, so no CSS padding across either); as short as one line, so the window can be
    /// made small.
    private func measure() {
        let size = Self.contentWidth(of: titles, in: area)
        let drawingArea = gtkCast(area, to: GtkDrawingArea.self)
        gtk_drawing_area_set_content_width(drawingArea, size.width)
        gtk_drawing_area_set_content_height(drawingArea, size.lineHeight)
    }

    /// The width of the widest of `titles` and the margins, and the height of a line, in
    /// `area`'s font.
    private static func contentWidth(of titles: [String], in area: UnsafeMutablePointer<GtkWidget>) -> (width: Int32, lineHeight: Int32) {
        let layout = gtk_widget_create_pango_layout(area, nil)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var widest: Int32 = 0, lineHeight: Int32 = 0
        for title in titles.isEmpty ? ["W"] : titles {
            pango_layout_set_text(layout, title, -1)
            var width: Int32 = 0, height: Int32 = 0
            pango_layout_get_pixel_size(layout, &width, &height)
            widest = max(widest, width)
            lineHeight = max(lineHeight, height)
        }
        return (widest + 2 * margin, lineHeight)
    }

    /// Highlights the title at `index` (nil: none), without picking it.
    func highlight(_ index: Int?) {
        guard index != current else { return }
        current = index
        announce()
        gtk_widget_queue_draw(area)
    }

    /// Highlights the title at `index` and tells `picked`.
    func pick(_ index: Int) {
        guard !titles.isEmpty else { return }
        let index = min(max(index, 0), titles.count - 1)
        highlight(index)
        picked(index)
    }

    /// Tells screen readers which title is highlighted.
    private func announce() {
        guard !titles.isEmpty else { return }
        let now = current ?? 0
        cgtk_shims_slider_area_set_value(area, Double(titles.count - 1), Double(now), titles[now])
    }

    // MARK: - Drawing

    /// How high a line of the strip's text is, from its font; 0 before it has one.
    private var lineHeight: Double {
        Double(gtk_drawing_area_get_content_height(gtkCast(area, to: GtkDrawingArea.self)))
    }

    /// Where the titles are in the strip as it is now.
    private var lines: SectionIndexLines {
        SectionIndexLines(count: titles.count, height: Double(gtk_widget_get_height(area)), lineHeight: lineHeight)
    }

    private func draw(_ cairo: OpaquePointer?, width: Double, height: Double) {
        guard !titles.isEmpty else { return }
        let lines = SectionIndexLines(count: titles.count, height: height, lineHeight: lineHeight)
        var color = GdkRGBA()
        cgtk_shims_widget_get_color(area, &color)
        let currentLine = current.map(lines.line(of:))
        if let currentLine {
            var shade = color
            shade.alpha *= 0.15
            gdk_cairo_set_source_rgba(cairo, &shade)
            cairo_rectangle(cairo, 0, lines.top + Double(currentLine) * lines.step, width, lines.step)
            cairo_fill(cairo)
        }
        gdk_cairo_set_source_rgba(cairo, &color)
        let layout = gtk_widget_create_pango_layout(area, nil)
        for line in 0..<lines.count {
            let text = line == currentLine ? titles[current!] : lines.showsTitle(line) ? titles[lines.title(onLine: line)] : "•"
            pango_layout_set_text(layout, text, -1)
            var textWidth: Int32 = 0, textHeight: Int32 = 0
            pango_layout_get_pixel_size(layout, &textWidth, &textHeight)
            cairo_move_to(cairo, (width - Double(textWidth)) / 2, lines.top + Double(line) * lines.step + (lines.step - Double(textHeight)) / 2)
            pango_cairo_show_layout(cairo, layout)
        }
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    // MARK: - Input

    private func listenToThePointer() {
        let drag = gtk_gesture_drag_new()!
        Signal.connect(UnsafeMutableRawPointer(drag), "drag-begin") { [weak self] (_: Double, y: Double) in
            guard let self else { return }
            pressedAt = y
            gtk_widget_add_css_class(area, "pressed")
            pick(lines.title(at: y))
        }
        Signal.connect(UnsafeMutableRawPointer(drag), "drag-update") { [weak self] (_: Double, moved: Double) in
            guard let self, let pressedAt else { return }
            let index = lines.title(at: pressedAt + moved)
            if index != current { pick(index) }
        }
        Signal.connect(UnsafeMutableRawPointer(drag), "drag-end") { [weak self] (_: Double, _: Double) in
            guard let self else { return }
            pressedAt = nil
            gtk_widget_remove_css_class(area, "pressed")
        }
        gtk_widget_add_controller(area, drag)
    }

    private func listenToKeys() {
        let keys = gtk_event_controller_key_new()!
        Signal.connect(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] (keyval: UInt32, _: UInt32, state: UInt32) -> Bool in
            self?.press(keyval, state: state) ?? false
        }
        gtk_widget_add_controller(area, keys)
    }

    /// What a key does while the strip has the focus; false leaves it to the window.
    private func press(_ keyval: UInt32, state: UInt32) -> Bool {
        guard !titles.isEmpty, state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue) == 0 else { return false }
        // With no title highlighted yet, a move starts at the first.
        let from = current
        switch Int32(keyval) {
        case GDK_KEY_Up, GDK_KEY_KP_Up, GDK_KEY_Left, GDK_KEY_KP_Left: pick(from.map { $0 - 1 } ?? 0)
        case GDK_KEY_Down, GDK_KEY_KP_Down, GDK_KEY_Right, GDK_KEY_KP_Right: pick(from.map { $0 + 1 } ?? 0)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: pick(from.map { $0 - 5 } ?? 0)
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: pick(from.map { $0 + 5 } ?? 0)
        case GDK_KEY_Home, GDK_KEY_KP_Home: pick(0)
        case GDK_KEY_End, GDK_KEY_KP_End: pick(titles.count - 1)
        default: return false
        }
        return true
    }
}

/// Where a section index strip draws its titles: `count` lines `step` apart from `top`.
/// All the titles when they fit, centred in the strip; else as many lines as fit, over its
/// whole height, each standing for the titles at its share of the height.
struct SectionIndexLines {
    let titles: Int
    let count: Int
    let top: Double
    let step: Double

    init(count titles: Int, height: Double, lineHeight: Double) {
        self.titles = titles
        guard titles > 0, lineHeight > 0, height > 0 else {
            (count, top, step) = (0, 0, 0)
            return
        }
        if Double(titles) * lineHeight <= height {
            (count, step) = (titles, lineHeight)
            top = (height - Double(titles) * lineHeight) / 2
        } else {
            count = max(1, Int(height / lineHeight))
            (top, step) = (0, height / Double(count))
        }
    }

    /// Whether the lines stand for every title, one each.
    var showsEveryTitle: Bool { count == titles }

    /// The title at `y` (the first or last one beyond the lines).
    func title(at y: Double) -> Int {
        guard count > 0 else { return 0 }
        let share = (y - top) / (step * Double(count))
        return min(max(Int((share * Double(titles)).rounded(.down)), 0), titles - 1)
    }

    /// The title a line stands for: the one at its middle.
    func title(onLine line: Int) -> Int {
        title(at: top + (Double(line) + 0.5) * step)
    }

    /// The line standing for `title`: the one whose share of the height holds the title's
    /// middle (a line stands for the title at its own middle, `title(onLine:)`).
    func line(of title: Int) -> Int {
        guard titles > 0, count > 0 else { return 0 }
        return min(Int((Double(title) + 0.5) * Double(count) / Double(titles)), count - 1)
    }

    /// Whether `line` shows its title (else a dot): every line when all fit, else every
    /// other one and the last.
    func showsTitle(_ line: Int) -> Bool {
        showsEveryTitle || line % 2 == 0 || line == count - 1
    }
}
