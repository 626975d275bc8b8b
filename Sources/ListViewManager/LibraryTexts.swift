/// The library's texts (menu entries, stand-in rows, accessible descriptions), in its text
/// domain `list-view-manager`.
let tr = TextDomain.library
