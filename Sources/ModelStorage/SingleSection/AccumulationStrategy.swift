import Foundation

/// How `SingleSectionStorage.addItems(_:_:)` puts the items added together with the items
/// held, by their identities (DTModelStorage's accumulation strategies).
public protocol AccumulationStrategy {
    /// The items the section holds once `newItems` are added to `oldItems`.
    func accumulate<Item: Identifiable>(oldItems: [Item], newItems: [Item]) -> [Item]
}

/// Appends the new items after the old ones, whatever their identities (the default).
public struct AdditiveAccumulationStrategy: AccumulationStrategy {
    /// The strategy (it has no settings).
    public init() {}

    public func accumulate<Item: Identifiable>(oldItems: [Item], newItems: [Item]) -> [Item] {
        oldItems + newItems
    }
}

/// A new item whose identity the section already holds replaces that item where it is;
/// the others are appended, in order.
public struct UpdateOldValuesAccumulationStrategy: AccumulationStrategy {
    /// The strategy (it has no settings).
    public init() {}

    public func accumulate<Item: Identifiable>(oldItems: [Item], newItems: [Item]) -> [Item] {
        var items = oldItems
        var places: [Item.ID: Int] = [:]
        for (index, item) in items.enumerated() where places[item.id] == nil { places[item.id] = index }
        for item in newItems {
            if let place = places[item.id] {
                items[place] = item
            } else {
                places[item.id] = items.count
                items.append(item)
            }
        }
        return items
    }
}

/// Every new item is appended, in order; an old item whose identity comes again among
/// them is removed (so it moves to its new place, with its new content).
public struct DeleteOldValuesAccumulationStrategy: AccumulationStrategy {
    /// The strategy (it has no settings).
    public init() {}

    public func accumulate<Item: Identifiable>(oldItems: [Item], newItems: [Item]) -> [Item] {
        let added = Set(newItems.map(\.id))
        return oldItems.filter { !added.contains($0.id) } + newItems
    }
}

extension AccumulationStrategy where Self == AdditiveAccumulationStrategy {
    /// Appends the new items after the old ones.
    public static var additive: Self { Self() }
}

extension AccumulationStrategy where Self == UpdateOldValuesAccumulationStrategy {
    /// Replaces the old items of the new items' identities in place, appends the others.
    public static var updateOldValues: Self { Self() }
}

extension AccumulationStrategy where Self == DeleteOldValuesAccumulationStrategy {
    /// Removes the old items of the new items' identities, appends every new item.
    public static var deleteOldValues: Self { Self() }
}
