import CGettext
import Foundation

/// Translated text, through gettext: a text domain names one set of translations,
/// installed as `DIRECTORY/LANGUAGE/LC_MESSAGES/NAME.mo`, so that an app's and the
/// library's never mix.
///
/// It calls the C library's `dgettext` and `dngettext`, as GLib's `g_dgettext` does (which
/// adds only a check for apps that set a default domain and are not translated), so that
/// the storages, which do not link GLib, are translated too.
///
/// ```swift
/// let tr = TextDomain("org.example.Posts")
/// tr.bind(to: "/usr/share/locale")            // where the app installs its .mo files
/// label.text = tr("Nothing selected")
/// count.text = tr.plural("%d post", "%d posts", count: posts.count, posts.count)
/// ```
///
/// Write each text as one string literal in the call, so that `xgettext --language=C
/// --keyword=tr:1 --keyword=plural:1,2` finds it; put what varies in `%@`, `%ld` and
/// `%lld` placeholders, never in an interpolation. Untranslated text (no `.mo` for the
/// user's language) is shown as written.
public struct TextDomain: Sendable {
    /// The domain's name: the `.mo` files' name.
    public let name: String

    /// The domain named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The library's own texts ("Delete", "No row registered for …", the storages'
    /// messages), in the domain `list-view-manager`. Without `bind(to:)`, gettext looks
    /// for them where the system keeps translations (`/usr/share/locale`).
    public static let library = TextDomain("list-view-manager")

    /// Looks for this domain's translations in `directory`, and reads them as UTF-8.
    public func bind(to directory: String) {
        bindtextdomain(name, directory)
        bind_textdomain_codeset(name, "UTF-8")
    }

    /// `text` in the user's language.
    public func callAsFunction(_ text: String) -> String {
        // Untranslated, gettext answers the pointer it was given: the C copy of `text`,
        // which lives only inside this closure.
        text.withCString { msgid in
            guard let translated = dgettext(name, msgid), translated != msgid else { return text }
            return String(cString: translated)
        }
    }

    /// `text` in the user's language, its placeholders (`%@`, `%d`) filled with `arguments`.
    public func callAsFunction(_ text: String, _ arguments: any CVarArg...) -> String {
        String(format: callAsFunction(text), arguments: arguments)
    }

    /// The singular or the plural form of a text for `count` (the language's own plural
    /// rule: one form in Japanese, three in Polish), its placeholders filled with `arguments`.
    public func plural(_ singular: String, _ plural: String, count: Int, _ arguments: any CVarArg...) -> String {
        let form = singular.withCString { one in
            plural.withCString { many in
                // Untranslated, gettext answers one of the pointers it was given.
                let chosen = dngettext(name, one, many, UInt(max(count, 0))).map { UnsafePointer($0) }
                return chosen == one ? singular : chosen == many ? plural : chosen.map { String(cString: $0) } ?? plural
            }
        }
        return arguments.isEmpty ? form : String(format: form, arguments: arguments)
    }
}

/// The library's texts.
let tr = TextDomain.library
