import Foundation
import ListViewManager

/// A directory entry: icon, name, size and date. One subclass per kind, each registered
/// with a model condition on the entry's kind (events and menus name them).
@MainActor
open class EntryRow: DetailRow, ModelTransfer {
    public func update(with model: DirectoryEntry) {
        var subtitle = model.modified.map { EntryFormat.date($0) } ?? ""
        if let target = model.linkTarget { subtitle += (subtitle.isEmpty ? "" : " · ") + "→ " + target }
        if let problem = model.problem { subtitle = problem }
        show(icon: model.iconName, title: model.name, subtitle: subtitle, note: model.size.map(EntryFormat.size) ?? "")
    }
}

public final class FolderRow: EntryRow {}

public final class ImageRow: EntryRow {}

public final class DocumentRow: EntryRow {}

public final class OtherFileRow: EntryRow {}

public final class UnreadableEntryRow: EntryRow {
    public required init() {
        super.init()
        addCSSClass("unreadable")
    }
}

/// How sizes and dates read.
enum EntryFormat {
    static func size(_ bytes: Int64) -> String {
        // Translators: the units of file sizes, in powers of 1000 (bytes, kilobytes…).
        let units = [tr("B"), tr("kB"), tr("MB"), tr("GB"), tr("TB")]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) \(units[0])" : String(format: "%.1f %@", value, units[unit])
    }

    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
