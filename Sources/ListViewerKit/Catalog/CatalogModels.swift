import Foundation

/// Decodes `key` as a whole number, saying so (with its place) when it is a fraction or
/// too large, where Foundation's decoder gives no place.
func decodeWholeNumber<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int {
    do {
        return try container.decode(Int.self, forKey: key)
    } catch DecodingError.typeMismatch(_, let context) {
        throw DecodingError.typeMismatch(Int.self, context)
    } catch let error as DecodingError {
        throw error
    } catch {
        // JSONDecoder throws an error of its own for a number no Int holds, which it reports
        // as "not valid JSON", saying not where: say which number it is.
        let number = try container.decode(Double.self, forKey: key)
        throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: container.codingPath + [key], debugDescription: "",
                                                                underlyingError: NotAWholeNumber(isWhole: number.rounded() == number)))
    }
}

/// A number where a whole number from `Int.min` to `Int.max` belongs: one with a fraction,
/// or (`isWhole`) one out of that range.
struct NotAWholeNumber: Error {
    let isWhole: Bool
}

/// A book in a catalog.
public struct Book: Codable, Equatable, Sendable {
    public var title: String
    public var author: String
    public var year: Int
    public var pages: Int

    private enum CodingKeys: String, CodingKey { case title, author, year, pages }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        author = try container.decode(String.self, forKey: .author)
        year = try decodeWholeNumber(container, .year)
        pages = try decodeWholeNumber(container, .pages)
    }

    public init(title: String, author: String, year: Int, pages: Int) {
        self.title = title
        self.author = author
        self.year = year
        self.pages = pages
    }
}

/// A music album in a catalog.
public struct Album: Codable, Equatable, Sendable {
    public var title: String
    public var artist: String
    public var year: Int
    public var tracks: Int

    private enum CodingKeys: String, CodingKey { case title, artist, year, tracks }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        artist = try container.decode(String.self, forKey: .artist)
        year = try decodeWholeNumber(container, .year)
        tracks = try decodeWholeNumber(container, .tracks)
    }

    public init(title: String, artist: String, year: Int, tracks: Int) {
        self.title = title
        self.artist = artist
        self.year = year
        self.tracks = tracks
    }
}

/// A place in a catalog.
public struct Place: Codable, Equatable, Sendable {
    public var name: String
    public var country: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, country: String, latitude: Double, longitude: Double) {
        self.name = name
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A section header with more than a title: shown by its own row type.
public struct SectionBanner: Codable, Equatable, Sendable {
    public var title: String
    public var subtitle: String?
    public var icon: String?

    public init(title: String, subtitle: String?, icon: String?) {
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
    }
}

/// One catalog entry: `{"book": {…}}`, `{"album": {…}}` or `{"place": {…}}`.
public enum CatalogItem: Equatable, Sendable {
    case book(Book)
    case album(Album)
    case place(Place)

    /// The model itself, as the storage keeps it.
    public var model: Any {
        switch self {
        case .book(let book): return book
        case .album(let album): return album
        case .place(let place): return place
        }
    }

    /// The text search matches against.
    public var searchText: String {
        switch self {
        case .book(let book): return "\(book.title) \(book.author) \(book.year)"
        case .album(let album): return "\(album.title) \(album.artist) \(album.year)"
        case .place(let place): return "\(place.name) \(place.country)"
        }
    }
}

extension CatalogItem: Codable {
    private enum Kind: String, CodingKey, CaseIterable {
        case book, album, place
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let keys = container.allKeys.map(\.stringValue)
        guard keys.count == 1, let kind = Kind(rawValue: keys[0]) else {
            let expected = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: tr("an item is an object with exactly one key, one of %@; found %@",
                                      expected, keys.isEmpty ? tr("none") : keys.sorted().joined(separator: ", "))))
        }
        let key = AnyKey(kind.rawValue)
        switch kind {
        case .book: self = .book(try container.decode(Book.self, forKey: key))
        case .album: self = .album(try container.decode(Album.self, forKey: key))
        case .place: self = .place(try container.decode(Place.self, forKey: key))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Kind.self)
        switch self {
        case .book(let book): try container.encode(book, forKey: .book)
        case .album(let album): try container.encode(album, forKey: .album)
        case .place(let place): try container.encode(place, forKey: .place)
        }
    }
}

/// A section header: a plain title or a banner.
public enum SectionHeader: Equatable, Sendable, Codable {
    case title(String)
    case banner(SectionBanner)

    /// The model the storage keeps: a `String` (shown as a title row) or a `SectionBanner`.
    public var model: Any {
        switch self {
        case .title(let title): return title
        case .banner(let banner): return banner
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let title = try? container.decode(String.self) {
            self = .title(title)
        } else if (try? decoder.container(keyedBy: AnyKey.self)) != nil {
            self = .banner(try container.decode(SectionBanner.self))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: tr("a header is a string, or an object with a title and optional subtitle and icon"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .title(let title): try container.encode(title)
        case .banner(let banner): try container.encode(banner)
        }
    }
}

/// A section of a catalog.
public struct CatalogSection: Codable, Equatable, Sendable {
    public var header: SectionHeader?
    public var footer: String?
    public var items: [CatalogItem]

    public init(header: SectionHeader?, footer: String?, items: [CatalogItem]) {
        self.header = header
        self.footer = footer
        self.items = items
    }
}

/// A catalog file: a title and sections.
public struct Catalog: Codable, Equatable, Sendable {
    public var title: String
    public var sections: [CatalogSection]

    public init(title: String, sections: [CatalogSection]) {
        self.title = title
        self.sections = sections
    }
}

/// A coding key made from any string.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
