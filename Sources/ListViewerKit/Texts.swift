import ListViewManager

/// The viewer's texts, in the text domain `list-viewer` (meson-helpers/po/list-viewer).
let tr = TextDomain("list-viewer")
