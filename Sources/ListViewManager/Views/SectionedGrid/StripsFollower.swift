/// A sectioned grid's part in each change: its strips follow the flat list, after its
/// splices and before the bound rows (its tiles) look for their new places.
@MainActor
final class StripsFollower: UpdateParticipant {
    private unowned let grid: SectionedGridViewManager

    init(grid: SectionedGridViewManager) {
        self.grid = grid
    }

    func didApply(_ applied: AppliedChange) {
        grid.stripsFollow(applied)
    }
}
