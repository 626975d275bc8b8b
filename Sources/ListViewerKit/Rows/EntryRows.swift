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
    /// `bytes` in the largest unit (powers of 1000) it makes at least 1 of: 999 B, 1.5 kB.
    static func size(_ bytes: Int64) -> String {
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < 4 {
            value /= 1000
            unit += 1
        }
        // Only the unit shown is looked up: a row's size is made at each bind.
        switch unit {
        // Translators: file sizes, in bytes, then in powers of 1000 of them.
        case 0: return tr("%lld B", bytes)
        case 1: return tr("%.1f kB", value)
        case 2: return tr("%.1f MB", value)
        case 3: return tr("%.1f GB", value)
        default: return tr("%.1f TB", value)
        }
    }

    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
