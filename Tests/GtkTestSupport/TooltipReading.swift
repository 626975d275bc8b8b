import CGtk
import Foundation

/// The tooltip a window shows, read back from GTK: GTK 4 shows it in a GtkTooltipWindow
/// whose parent is the window it belongs to, half a second after the pointer rests on a
/// widget that has one.
@MainActor
public enum TooltipReading {
    /// The text of the tooltip `window` shows now, if it shows one.
    public static func shownTooltip(in window: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = gtk_widget_get_first_child(window)
        while let current = child {
            if MenuReading.typeName(current) == "GtkTooltipWindow", gtk_widget_get_mapped(current) != 0 {
                return shownLabel(in: current)
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    private static func shownLabel(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_get_visible(current) != 0 {
                if MenuReading.typeName(current) == "GtkLabel" { return String(cString: gtk_label_get_text(OpaquePointer(current))) }
                if let text = shownLabel(in: current) { return text }
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}

extension GtkHarness {
    /// Moves the pointer onto `widget` and a little further on it (real input, as a hand
    /// does: GTK hides a tooltip shown for another widget at the first move, and starts
    /// the delay of the next at the one after), then waits until the window shows the
    /// tooltip `text`, or none when nil.
    public func hover(_ widget: UnsafeMutablePointer<GtkWidget>, untilTooltip text: String?, file: StaticString = #filePath, line: UInt = #line) {
        hover(widget, file: file, line: line)
        movePointer(to: widget, at: 0.6, file: file, line: line)
        wait(until: { TooltipReading.shownTooltip(in: window) == text }, timeout: 5,
             "the tooltip \(text ?? "to go") (shown: \(TooltipReading.shownTooltip(in: window) ?? "none"))", file: file, line: line)
    }
}
