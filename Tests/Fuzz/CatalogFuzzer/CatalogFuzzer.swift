import Foundation
import ListViewerKit

/// The catalog fuzz target: any bytes as a catalog file. Decoding either gives a catalog or
/// throws a `CatalogError` with a message; it never traps, and a catalog it gives encodes
/// and decodes again to the same catalog.
enum CatalogFuzzer {
    static func run(_ input: [UInt8]) {
        do {
            let catalog = try CatalogLoader.decode(Data(input), path: "fuzz.json")
            let again = try CatalogLoader.decode(try JSONEncoder().encode(catalog), path: "again.json")
            guard again == catalog else { fatalError("a decoded catalog does not survive encoding: \(catalog)") }
        } catch let error as CatalogError {
            guard !error.description.isEmpty else { fatalError("an empty message for \(input)") }
        } catch {
            fatalError("not a CatalogError: \(error)")
        }
    }
}
