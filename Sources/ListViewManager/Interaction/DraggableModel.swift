import CGtk
import CGtkShims
import Foundation
import GtkKit

/// A model whose items can be dragged out of their list: to other applications, to text
/// entries, to anything that takes text or files. A drag of such an item offers its
/// `dragContent`; within managed lists it still moves (or copies) the item itself.
///
/// ```swift
/// extension Post: DraggableModel {
///     var dragContent: [DragContent] { [.text(title)] }
/// }
/// ```
///
/// The item stays in its list whatever the other application does with what it received.
public protocol DraggableModel {
    /// What a drag of this item offers, the first preferred; empty offers nothing outside
    /// managed lists.
    @MainActor var dragContent: [DragContent] { get }
}

/// What a drag of a `DraggableModel`'s item offers other applications.
public enum DragContent {
    /// Text (`text/plain`): a text entry inserts it.
    case text(String)
    /// Files, as local paths or URIs with a scheme (`text/uri-list`): what a file manager
    /// drags.
    case files([String])
    /// A `GdkContentProvider` of the app's own, for any other format.
    case provider(ObjectReference<UnsafeMutablePointer<GdkContentProvider>>)

    /// A new content provider offering this content (one reference, for the caller).
    @MainActor
    func makeProvider() -> ObjectReference<UnsafeMutablePointer<GdkContentProvider>> {
        switch self {
        case .text(let text):
            return ObjectReference(adopting: cgtk_shims_text_content_new(text)!)
        case .files(let paths):
            let cPaths = paths.map { UnsafePointer(strdup($0)) }
            defer { cPaths.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
            return ObjectReference(adopting: cgtk_shims_files_content_new(cPaths, gsize(cPaths.count))!)
        case .provider(let provider):
            return provider
        }
    }
}
