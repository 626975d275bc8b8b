import CGtk
import GtkKit

/// A sectioned grid's own list, the strips GTK shows: it follows each change after the flat
/// list and before the bound rows (its tiles) look for their new places, and it answers
/// which strip shows a row, which tile slot holds a widget, and shows the tiles' selection.
@MainActor
final class GridStrips: ViewOwnList {
    private unowned let grid: SectionedGridViewManager

    init(grid: SectionedGridViewManager) {
        self.grid = grid
    }

    var phases: UpdatePhases { .afterSplices }

    func didApply(_ applied: AppliedChange) {
        grid.stripsFollow(applied)
    }

    func viewPosition(ofRow position: Int) -> Int? {
        switch grid.bridge.layout.row(at: position) {
        case .item(let indexPath)?: return grid.stripPosition(of: indexPath)
        case .header(let section)?: return grid.strips.layout.position(of: .header(section: section))
        case .footer(let section)?: return grid.strips.layout.position(of: .footer(section: section))
        case nil: return nil
        }
    }

    func slot(containing widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        grid.stripFactory.slot(containing: widget)
    }

    func selectionDidChange(at positions: Range<Int>) {
        for (slot, position) in grid.stripFactory.boundTiles where positions.contains(position) {
            grid.showSelection(ofTile: slot, at: position)
        }
    }
}
