import CGtk
import GtkKit

extension ItemViewManager {
    /// The titles of the section index (DTTableViewManager's `sectionIndexTitles`): a strip
    /// along the side of the list showing them, as UIKit's section index does. Pressing a
    /// title, or moving the pointer along the strip with the button down, scrolls the list
    /// to the title's section, its header at the top; with the keyboard focus on the strip
    /// (after the list in the focus chain), Up and Down go to the previous and next title,
    /// Page Up and Page Down five at a time, Home and End to the first and last. The strip
    /// highlights the title of the section at the top of the list, and screen readers read
    /// it as a slider, and set it.
    ///
    /// `titles` is asked again after each change to the sections (sections inserted, deleted
    /// or moved, a header or footer changed, the storage replaced or reloaded) and on
    /// ``reloadSectionIndex()``; nil or no titles hides the strip. Title `n` takes the list
    /// to section `n` unless ``sectionForSectionIndexTitle(_:)`` says otherwise.
    ///
    /// The strip is shown beside the list in ``gtkWidget``.
    public func sectionIndexTitles(_ titles: @escaping @MainActor () -> [String]?) {
        changeSectionIndex { $0.titles = titles }
    }

    /// The section a title of the section index takes the list to, given the title and its
    /// index among the titles (DTTableViewManager's `sectionForSectionIndexTitle`): for
    /// titles that are not one per section, such as the whole alphabet over sections only
    /// some letters have.
    public func sectionForSectionIndexTitle(_ section: @escaping @MainActor (_ title: String, _ index: Int) -> Int) {
        changeSectionIndex { $0.section = section }
    }

    /// Section index titles made from the sections' headers: `title` of each section's
    /// header model of type `Header` (sections with another header, none, or a nil title
    /// have no title). A title the same as the one before it is shown once, taking the list
    /// to the first of its sections: first letters make an alphabet. One title alone is not
    /// shown (it would take the list nowhere).
    ///
    /// ```swift
    /// manager.sectionIndexTitles(fromHeaders: String.self) { header in header.first.map { String($0).uppercased() } }
    /// ```
    public func sectionIndexTitles<Header>(fromHeaders headerType: Header.Type, _ title: @escaping @MainActor (Header) -> String?) {
        let sections = SectionsOfTitles()
        // Both closures set before the titles are asked for, once.
        let titles: @MainActor () -> [String]? = { [unowned self] in
            var titles: [String] = []
            sections.list = []
            for section in 0..<storage.numberOfSections() {
                guard let header = storage.headerModel(forSection: section) as? Header, let shown = title(header), shown != titles.last else { continue }
                titles.append(shown)
                sections.list.append(section)
            }
            return titles.count > 1 ? titles : nil
        }
        changeSectionIndex { index in
            index.titles = titles
            index.section = { _, index in sections.list.indices.contains(index) ? sections.list[index] : index }
        }
    }

    /// Asks for the section index titles again (after a change the storage did not report,
    /// such as the app's own sort of its titles).
    public func reloadSectionIndex() {
        sectionIndex?.reload()
    }

    /// The titles the section index shows (none without one).
    public var shownSectionIndexTitles: [String] { sectionIndex?.strip.titles ?? [] }

    /// Picks the section index title at `index`, as a press on it does (for the benchmarks).
    package func pickSectionIndexTitle(_ index: Int) {
        sectionIndex?.strip.pick(index)
    }

    /// The section index's strip, once the app gave titles.
    var sectionIndexStrip: UnsafeMutablePointer<GtkWidget>? { sectionIndex?.strip.area }

    /// Makes `change` to the section index (made, and put beside the view, the first time),
    /// then asks for its titles.
    private func changeSectionIndex(_ change: (SectionIndex) -> Void) {
        let index = sectionIndex ?? SectionIndex(manager: self)
        if sectionIndex == nil {
            sectionIndex = index
            if let scrolledViewReference { gtk_box_append(gtkCast(scrolledViewReference.pointer, to: GtkBox.self), index.strip.area) }
        }
        change(index)
        index.reload()
    }
}

/// The section of each title made from headers, in order.
@MainActor
private final class SectionsOfTitles {
    var list: [Int] = []
}
