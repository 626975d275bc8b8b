import Foundation
@testable import ListViewManager

enum Weather: Equatable, CustomStringConvertible {
    case sunny
    case rain(millimetres: Int)

    var description: String {
        switch self {
        case .sunny: return "sunny"
        case .rain(let millimetres): return "rain \(millimetres) mm"
        }
    }
}

protocol Media: AnyObject {
    var caption: String { get }
}

final class Photo: Media, CustomStringConvertible {
    let caption: String
    init(caption: String) { self.caption = caption }
    var description: String { "Photo(\(caption))" }
}

struct Banner: Equatable {
    let text: String
}

final class WeatherRow: ListRow, ModelTransfer {
    let icon = Image()
    let summary = Label()
    required init() { super.init(); append(icon); append(summary) }
    func update(with model: Weather) {
        icon.iconName = model == .sunny ? "weather-clear-symbolic" : "weather-showers-symbolic"
        summary.text = model.description
    }
}

final class MediaRow: ListRow, ModelTransfer {
    let caption = Label()
    required init() { super.init(); append(caption) }
    func update(with model: any Media) { caption.text = model.caption }
}

final class BannerRow: ListRow, ModelTransfer {
    let text = Label()
    required init() { super.init(); append(text) }
    func update(with model: Banner) { text.text = model.text.uppercased() }
}

/// Counts `update(with:)` calls per model, to check what was rebound.
final class CountingPostRow: ListRow, ModelTransfer {
    nonisolated(unsafe) static var updates: [Int] = []
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: Post) {
        Self.updates.append(model.id)
        title.text = model.title
    }
}
