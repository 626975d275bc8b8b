import ModelStorage

/// The storages' messages (a file replaced), in the library's text domain
/// `list-view-manager`.
let tr = TextDomain.library
