import Foundation

/// Why a catalog file could not be shown.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is empty.
    case empty(path: String)
    /// The file is not valid JSON: `reason` says what and where (line and column).
    case malformed(path: String, reason: String)
    /// The JSON is valid but not a catalog: `location` says where (`sections[0].title`), as
    /// do `line` and `column` (counted from 1, the column in characters).
    case wrongShape(path: String, location: String, line: Int, column: Int, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return tr("Cannot read %@: %@", path, reason)
        case let .empty(path): return tr("%@ is empty", path)
        case let .malformed(path, reason): return tr("%@ is not valid JSON: %@", path, reason)
        case let .wrongShape(path, location, line, column, reason):
            return tr("%@ is not a catalog: at %@ (line %ld, column %ld), %@", path, location, line, column, reason)
        }
    }
}

/// Reads catalog files.
public enum CatalogLoader {
    /// The catalog in the JSON file at `path`.
    /// - Throws: `CatalogError` saying what is wrong and where.
    public static func load(path: String) throws -> Catalog {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CatalogError.unreadable(path: path, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        return try decode(data, path: path)
    }

    /// The catalog in `data` (named `path` in errors). The JSON must be strict (RFC 8259:
    /// no trailing comma, say); what is wrong is refused saying where, by line and column.
    public static func decode(_ data: Data, path: String) throws -> Catalog {
        if data.isEmpty { throw CatalogError.empty(path: path) }
        let text = JSONText(data)
        do {
            try text.check()
        } catch {
            throw CatalogError.malformed(path: path, reason: error.reason)
        }
        do {
            return try JSONDecoder().decode(Catalog.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, in: text, path: path)
        }
    }

    private static func describe(_ error: DecodingError, in text: JSONText, path: String) -> CatalogError {
        func wrongShape(at codingPath: [CodingKey], _ reason: String) -> CatalogError {
            let location = codingPath.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
            let place = text.value(at: codingPath)?.place ?? JSONText.Place(line: 1, column: 1)
            return .wrongShape(path: path, location: location.isEmpty ? tr("the top level") : location,
                               line: place.line, column: place.column, reason: reason)
        }
        switch error {
        case let .keyNotFound(key, context):
            return wrongShape(at: context.codingPath, tr("\"%@\" is missing", key.stringValue))
        case let .typeMismatch(type, context):
            return wrongShape(at: context.codingPath, tr("expected %@", describe(type)))
        case let .valueNotFound(type, context):
            return wrongShape(at: context.codingPath, tr("expected %@, found null", describe(type)))
        case let .dataCorrupted(context):
            guard let notWhole = context.underlyingError as? NotAWholeNumber else {
                return wrongShape(at: context.codingPath, context.debugDescription)
            }
            // The number as written: a Double would round 9223372036854775808.
            let written = JSONText.quoted(text.value(at: context.codingPath)?.text ?? "")
            return wrongShape(at: context.codingPath, notWhole.isWhole ? tr("expected a whole number from %ld to %ld, found %@", Int.min, Int.max, written)
                                                                        : tr("expected a whole number, found %@", written))
        @unknown default:
            return wrongShape(at: [], "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return tr("a string")
        case is Int.Type: return tr("a whole number")
        case is Double.Type: return tr("a number")
        case is [Any].Type, is [CatalogSection].Type, is [CatalogItem].Type: return tr("an array")
        default: return tr("an object")
        }
    }
}
