import Foundation
import ModelStorage

/// Chooses the mapping for a model, in registration order; the candidates for each model
/// type and kind are computed once and cached, so binding does no reflection or string
/// work.
@MainActor
struct MappingResolver {
    private(set) var mappings: [ViewModelMapping] = []
    /// Mappings tried after the registered ones: the built-in title rows.
    let fallbacks: [ViewModelMapping]
    private var candidates: [CandidateKey: [ViewModelMapping]] = [:]

    private struct CandidateKey: Hashable {
        let kind: MappingKind
        let modelType: ObjectIdentifier
    }

    init(fallbacks: [ViewModelMapping]) {
        self.fallbacks = fallbacks
    }

    mutating func add(_ mapping: ViewModelMapping) {
        mappings.append(mapping)
        candidates.removeAll()
    }

    mutating func remove(where shouldRemove: (ViewModelMapping) -> Bool) {
        mappings.removeAll(where: shouldRemove)
        candidates.removeAll()
    }

    /// The first mapping of `kind` that applies to `model` at `indexPath` (its item `depth`
    /// deep in a tree, if the rows are a tree's), or nil.
    mutating func mapping(_ kind: MappingKind, for model: Any, at indexPath: IndexPath, depth: () -> Int? = { nil }) -> ViewModelMapping? {
        let key = CandidateKey(kind: kind, modelType: ObjectIdentifier(type(of: model)))
        let list: [ViewModelMapping]
        if let cached = candidates[key] {
            list = cached
        } else {
            list = (mappings + fallbacks).filter { $0.kind == kind && $0.modelMatches(model) }
            candidates[key] = list
        }
        return list.first { $0.applies(to: model, at: indexPath, depth: depth) }
    }

    /// Whether a mapping's choice depends on where a model is (`dependsOnPlace`).
    var dependsOnPlace: Bool {
        mappings.contains(where: \.dependsOnPlace)
    }

    /// Every registered mapping of `kind` for the row type `rowType`.
    func mappings(_ kind: MappingKind, rowType: ObjectIdentifier) -> [ViewModelMapping] {
        (mappings + fallbacks).filter { $0.kind == kind && $0.rowType == rowType }
    }
}
