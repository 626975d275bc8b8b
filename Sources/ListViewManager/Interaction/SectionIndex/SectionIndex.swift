import CGtk
import GtkKit
import ModelStorage

/// A manager's section index: the strip beside the list, the app's titles, and which
/// section each title takes the list to. The titles are asked for again after each change
/// to the sections (sections inserted, deleted or moved, headers changed, a reload); the
/// highlighted title follows the section at the top of the list after each layout in which
/// the list moved.
@MainActor
final class SectionIndex: UpdateParticipant {
    private unowned let manager: ItemViewManager
    private(set) var strip: SectionIndexStrip!
    /// The app's titles (DTTableViewManager's `sectionIndexTitles`).
    var titles: @MainActor () -> [String]? = { nil }
    /// The section each title takes the list to (DTTableViewManager's
    /// `sectionForSectionIndexTitle`); by default, the section of the title's index.
    var section: @MainActor (String, Int) -> Int = { _, index in index }
    /// The section each title takes the list to, in the titles' order.
    private var titleSections: [Int] = []
    /// Follows the layouts of the list, to highlight the title of the section at the top.
    private var layouts: AfterLayout?
    /// How far the list was scrolled when the highlight was last looked at; nil: look again.
    private var lookedAt: Double?
    /// Whether a title was just picked: the list is on its way there, and the highlight
    /// stays on the picked title until the list is moved otherwise.
    private var picking = false

    var phases: UpdatePhases { .afterSplices }

    init(manager: ItemViewManager) {
        self.manager = manager
        strip = SectionIndexStrip { [weak self] index in self?.go(to: index) }
        layouts = AfterLayout(of: manager.view) { [weak self] in self?.followTheList() }
    }

    func didApply(_ applied: AppliedChange) {
        lookedAt = nil
        guard let update = applied.change.update else { return reload() }
        if update.changes.contains(where: \.changesSections) { reload() }
    }

    /// Asks the app for the titles again.
    func reload() {
        let titles = titles() ?? []
        strip.show(titles)
        titleSections = titles.enumerated().map { section($0.element, $0.offset) }
        lookedAt = nil
    }

    /// Takes the list to the section of the title at `index` (or, when that section shows no
    /// row, the next one that does).
    private func go(to index: Int) {
        guard index < titleSections.count else { return }
        picking = true
        lookedAt = nil
        let sections = manager.storage.numberOfSections()
        var section = min(max(titleSections[index], 0), max(sections - 1, 0))
        while section < sections, !manager.scrollTo(section: section, at: .top) { section += 1 }
    }

    /// Highlights the title of the section at the top of the list, once the list has moved
    /// (not while the pointer is on the strip, nor while the list goes to a picked title).
    private func followTheList() {
        guard !strip.titles.isEmpty, strip.pressedAt == nil, !manager.isScrollingToARow,
              let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)) else { return }
        let value = gtk_adjustment_get_value(adjustment)
        if let lookedAt, abs(lookedAt - value) < 0.5 { return }
        lookedAt = value
        if picking {
            // Arrived at the picked title: it stays highlighted until the list moves again.
            picking = false
            return
        }
        guard let top = manager.topItemRow()?.indexPath.section else { return }
        strip.highlight(title(ofSection: top))
    }

    /// The title of the section `section` is in: the one taking the list to the nearest
    /// section at or above it.
    private func title(ofSection section: Int) -> Int? {
        var found: Int?
        for (index, titleSection) in titleSections.enumerated() where titleSection <= section {
            if found.map({ titleSection > titleSections[$0] }) ?? true { found = index }
        }
        return found
    }
}

extension StorageChange {
    /// Whether the change is to sections, or to a header or footer (which the titles may
    /// come from).
    fileprivate var changesSections: Bool {
        switch self {
        case .insertSection, .deleteSection, .moveSection, .supplementary: true
        case .insertItems, .deleteItems, .moveItem, .updateItem: false
        }
    }
}
