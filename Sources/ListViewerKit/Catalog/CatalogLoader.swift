import Foundation

/// Why a catalog file could not be shown.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is empty.
    case empty(path: String)
    /// The file is not valid JSON.
    case malformed(path: String, reason: String)
    /// The JSON is valid but not a catalog: `location` says where.
    case wrongShape(path: String, location: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return tr("Cannot read %@: %@", path, reason)
        case let .empty(path): return tr("%@ is empty", path)
        case let .malformed(path, reason): return tr("%@ is not valid JSON: %@", path, reason)
        case let .wrongShape(path, location, reason): return tr("%@ is not a catalog: at %@, %@", path, location, reason)
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

    /// The catalog in `data` (named `path` in errors). The JSON must be strict: Foundation's
    /// parser accepts trailing commas, which are refused here, saying where.
    public static func decode(_ data: Data, path: String) throws -> Catalog {
        if data.isEmpty { throw CatalogError.empty(path: path) }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw CatalogError.malformed(path: path, reason: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
        }
        if let place = TrailingComma.find(in: data) {
            throw CatalogError.malformed(path: path, reason: place)
        }
        do {
            return try JSONDecoder().decode(Catalog.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, path: path)
        }
    }

    private static func describe(_ error: DecodingError, path: String) -> CatalogError {
        func location(_ codingPath: [CodingKey]) -> String {
            let text = codingPath.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
            return text.isEmpty ? tr("the top level") : text
        }
        switch error {
        case let .keyNotFound(key, context):
            return .wrongShape(path: path, location: location(context.codingPath), reason: tr("\"%@\" is missing", key.stringValue))
        case let .typeMismatch(type, context):
            return .wrongShape(path: path, location: location(context.codingPath), reason: tr("expected %@", describe(type)))
        case let .valueNotFound(type, context):
            return .wrongShape(path: path, location: location(context.codingPath), reason: tr("expected %@, found null", describe(type)))
        case let .dataCorrupted(context):
            return .wrongShape(path: path, location: location(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .wrongShape(path: path, location: tr("the top level"), reason: "\(error)")
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
