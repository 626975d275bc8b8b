import CGtk
import CGtkShims
import Foundation
import GtkKit

/// A row built from a GtkBuilder `.ui` file (GTK's XIB): a subclass named `PhotoRow` gets
/// `PhotoRow.ui` from the bundle it was registered with (or the file its mapping's
/// `templateName` names). The template's root widget is the
/// object with id `root` (or else its first widget without a parent); other widgets are
/// reached by id with `outlet(_:)`.
///
/// ```swift
/// final class PhotoRow: TemplateRow, ModelTransfer {
///     lazy var caption: Label = outlet("caption")
///     func update(with model: Photo) { caption.text = model.caption }
/// }
/// manager.register(PhotoRow.self, bundle: .module)
/// ```
///
/// The file can also be a composite template, `<template class="PostCard" parent="GtkBox">`
/// (GTK's way to define a widget class in XML): the row then shows a `PostCard`, a GTK
/// widget type made from it once per process, and its objects' ids are outlets. Signal
/// handlers named in a template are not connected (GTK would look for C functions): connect
/// the outlets' signals in Swift.
///
/// A missing, empty or broken template, or a missing outlet, is a `ListViewManagerAnomaly`:
/// the row then says what is missing, and a missing outlet is a stand-in widget shown
/// nowhere.
@MainActor
open class TemplateRow: ListRow {
    /// The GtkBuilder holding the template's objects.
    private var builderReference: ObjectReference<OpaquePointer>?
    private var builder: OpaquePointer? { builderReference?.pointer }
    /// The composite widget and its type, when the file is a composite template.
    private var composite: (widget: UnsafeMutablePointer<GtkWidget>, type: GType)?
    private let templateName: String
    private let report: (ListViewManagerAnomaly) -> Void

    /// Creates the row and loads its template from the bundle it was registered with
    /// (`Bundle.main` when made outside a manager).
    public required init() {
        let context = TemplateContext.current
        templateName = context?.templateName ?? String(describing: type(of: self))
        report = context?.report ?? { ListViewManagerAnomaly.defaultAction($0) }
        super.init()
        addCSSClass("template-row")
        load(from: context?.bundle ?? .main)
    }

    /// The widget with `id` in the template, wrapped as `W`; a stand-in (and an anomaly)
    /// when the template has no such widget of that type.
    public func outlet<W: WrappingWidget>(_ id: String, as type: W.Type = W.self) -> W {
        let found = composite.map { gtk_widget_get_template_child($0.widget, $0.type, id) } ?? builder.flatMap { gtk_builder_get_object($0, id) }
        guard let object = found,
              cgtk_shims_instance_is_a(UnsafeMutableRawPointer(object), W.gtkType) != 0 else {
            report(.missingOutlet(id: id, template: templateName + ".ui", type: String(describing: W.self)))
            return W.standIn()
        }
        return W.wrapping(gtkCast(UnsafeMutableRawPointer(object), to: GtkWidget.self))
    }

    private func load(from bundle: Bundle) {
        let fileName = templateName + ".ui"
        guard let url = bundle.url(forResource: templateName, withExtension: "ui"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            fail(.templateNotFound(template: fileName, bundle: bundle.bundlePath))
            return
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            fail(.emptyTemplate(template: fileName))
            return
        }
        if text.contains("<template") { return loadComposite(text, fileName: fileName) }
        let reference = ObjectReference(adopting: gtk_builder_new()!)
        let builder = reference.pointer
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_string(builder, text, -1, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            fail(.brokenTemplate(template: fileName, message: message))
            return
        }
        builderReference = reference
        guard let root = Self.rootWidget(of: builder) else {
            fail(.emptyTemplate(template: fileName))
            return
        }
        append(Widget(root))
        gtk_widget_set_hexpand(root, 1)
    }

    /// Builds the row from a composite template, `<template class="PostCard" parent="GtkBox">`:
    /// the class becomes a GTK widget type (registered once per process; one class name, one
    /// template), the row shows an instance of it, and its objects' ids are outlets.
    private func loadComposite(_ text: String, fileName: String) {
        guard let element = text.firstMatch(of: /<template\s[^>]*>/).map({ String($0.output) }),
              let className = element.firstMatch(of: /class="([^"]+)"/)?.output.1,
              let parentName = element.firstMatch(of: /parent="([^"]+)"/)?.output.1 else {
            fail(.brokenTemplate(template: fileName, message: "its <template> element needs a class and a parent"))
            return
        }
        let ids = text.matches(of: /\sid="([^"]+)"/).map { String($0.output.1) }
        let lookup = ObjectReference(adopting: gtk_builder_new()!)
        let parent = gtk_builder_get_type_from_name(lookup.pointer, String(parentName))
        let bytes = Array(text.utf8)
        let template = bytes.withUnsafeBufferPointer { g_bytes_new($0.baseAddress, gsize($0.count))! }
        defer { g_bytes_unref(template) }
        var error: UnsafeMutablePointer<GError>?
        var names = ids.map { strdup($0) } + [nil]
        defer { names.forEach { free($0) } }
        let type = names.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
                cgtk_shims_template_type_register(String(className), parent, template, pointer, &error)
            }
        }
        guard type != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            fail(.brokenTemplate(template: fileName, message: message))
            return
        }
        let widget = cgtk_shims_template_widget_new(type)!
        composite = (widget, type)
        append(Widget(widget))
        gtk_widget_set_hexpand(widget, 1)
    }

    /// The object with id `root`, or the first widget without a parent.
    private static func rootWidget(of builder: OpaquePointer) -> UnsafeMutablePointer<GtkWidget>? {
        if let root = gtk_builder_get_object(builder, "root"), cgtk_shims_is_widget(UnsafeMutableRawPointer(root)) != 0 {
            return gtkCast(UnsafeMutableRawPointer(root), to: GtkWidget.self)
        }
        let objects = gtk_builder_get_objects(builder)
        defer { g_slist_free(objects) }
        var node = objects
        while let current = node {
            if let object = current.pointee.data, cgtk_shims_is_widget(object) != 0 {
                let widget = gtkCast(object, to: GtkWidget.self)
                if gtk_widget_get_parent(widget) == nil { return widget }
            }
            node = current.pointee.next
        }
        return nil
    }

    /// Reports `anomaly` and shows what is wrong in the row itself.
    private func fail(_ anomaly: ListViewManagerAnomaly) {
        report(anomaly)
        let label = Label("⚠ " + anomaly.description)
        label.addCSSClass("template-error")
        label.ellipsize(.end)
        append(label)
    }
}

/// Where rows being made by a mapping load their templates from, and where they report.
@MainActor
enum TemplateContext {
    struct Context {
        let bundle: Bundle
        let report: (ListViewManagerAnomaly) -> Void
        /// The mapping's `templateName`, if it names one.
        var templateName: String?
    }

    static var current: Context?

    /// Runs `make` with `context` as the current one.
    static func with<T>(_ context: Context, _ make: () -> T) -> T {
        let previous = current
        current = context
        defer { current = previous }
        return make()
    }
}
