import CGtk
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// Where the user is: the first item wholly in view (the first one partly in view when
    /// none is wholly), and how far below the top of the view its row is. Nil while the view
    /// shows no item (not laid out yet, or empty).
    public var place: ListPlace? {
        guard let top = topItemRow() else { return nil }
        let model = storage.item(at: top.indexPath)
        return ListPlace(itemIdentity: model.flatMap(itemIdentity(of:)), indexPath: top.indexPath, offset: top.offset)
    }

    /// Shows `place` again: its item's row as far below the top of the view as it was. The
    /// item is found by its identity wherever it is now (first where it was); an item with
    /// no identity is the one at the place's index path. Returns false, changing nothing,
    /// when no such item is in the storage. Works before the view is shown: the place is
    /// shown once the view has its size. A storage still reading where its items are (a
    /// paged storage showing its first rows, `ProgressivelyLoadingStorage`) that does not
    /// have the item yet is waited for: the place is shown once it has read them, unless
    /// another place or row was gone to, or the storage replaced, meanwhile.
    @discardableResult
    public func restore(_ place: ListPlace) -> Bool {
        placesRestored += 1
        let indexPath: IndexPath?
        if let identity = place.itemIdentity {
            indexPath = storage.indexPath(ofItemIdentifiedBy: identity, near: place.indexPath)
        } else {
            indexPath = self.position(of: place.indexPath) != nil ? place.indexPath : nil
        }
        guard let indexPath, let position = position(of: indexPath) else {
            guard place.itemIdentity != nil, let loading = storage as? any ProgressivelyLoadingStorage, !loading.isLoaded else { return false }
            restoreOnceLoaded(place, from: loading)
            return true
        }
        return scroll(toRow: position, to: .offset(place.offset))
    }

    /// Restores `place` once `storage` has read where every item is (looked at each frame),
    /// unless the storage was replaced or another place or row was gone to first.
    private func restoreOnceLoaded(_ place: ListPlace, from storage: any ProgressivelyLoadingStorage) {
        var restored = placesRestored
        let scrolls = scrollsAskedFor
        var framesWaitingForTheView = 0
        // (Not the view's scroll offset: GTK moves it by itself while the rows come in.)
        everyFrame(of: view) { [weak self] _ in
            guard let self, placesRestored == restored, scrollsAskedFor == scrolls,
                  self.storage as AnyObject === storage as AnyObject else { return false }
            if !storage.isLoaded { return true }
            if restore(place) { return false }
            // The storage has every key, but the view may show its last rows only once the
            // update held while GTK worked is applied: a few more frames.
            restored = placesRestored
            framesWaitingForTheView += 1
            return framesWaitingForTheView < 30
        }
    }

    /// The item row nearest the top of the view that is wholly in view (else the one
    /// reaching furthest into it), with its index path and how far below the top its row
    /// is; `excluded`'s row is passed over. `scrolled`: how far the view was scrolled since
    /// GTK last laid the rows out (they are that much higher on screen than laid out).
    package func topItemRow(excluding excluded: IndexPath? = nil, scrolledBy scrolled: Double = 0) -> (position: Int, indexPath: IndexPath, offset: Double)? {
        let height = Double(gtk_widget_get_height(kind.listBase(view)))
        var wholly: (position: Int, indexPath: IndexPath, offset: Double)?
        var partly: (position: Int, indexPath: IndexPath, offset: Double)?
        forEachItemRowInView(scrolledBy: scrolled) { position, indexPath, top, bottom in
            guard indexPath != excluded else { return }
            let candidate = (position, indexPath, top)
            if top >= 0, bottom <= height + 0.5 {
                if wholly.map({ top < $0.offset || top == $0.offset && position < $0.position }) ?? true { wholly = candidate }
            } else if partly.map({ top > $0.offset }) ?? true {
                partly = candidate
            }
        }
        return wholly ?? partly
    }

    /// Calls `body` with each item row GTK shows at least partly in the view: its position,
    /// index path, and the top and bottom of its row below the top of the view (`scrolled`:
    /// how far the view was scrolled since GTK last laid the rows out). Nothing while the
    /// view has no height.
    package func forEachItemRowInView(scrolledBy scrolled: Double = 0, _ body: (_ position: Int, _ indexPath: IndexPath, _ top: Double, _ bottom: Double) -> Void) {
        let listBase = kind.listBase(view)
        let height = Double(gtk_widget_get_height(listBase))
        guard height > 0 else { return }
        for (listItem, entry) in boundRows {
            guard entry.isBound, let factory = factories.first(where: { $0.attached[listItem] != nil }) else { continue }
            let position = factory.position(of: listItem)
            guard case .item(let indexPath)? = bridge.layout.row(at: position),
                  let widget = factory.child(of: listItem), gtk_widget_get_mapped(widget) != 0 else { continue }
            let rowWidget = rowWidget(containing: widget) ?? widget
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(rowWidget, listBase, &bounds) != 0 else { continue }
            let top = Double(bounds.origin.y) - scrolled, bottom = top + Double(bounds.size.height)
            guard bottom > 0, top < height else { continue }
            body(position, indexPath, top, bottom)
        }
    }
}
