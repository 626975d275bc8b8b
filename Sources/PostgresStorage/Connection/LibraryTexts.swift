import ModelStorage

/// The storage's messages (an unreachable server, a refused password, an unknown table), in
/// the library's text domain `list-view-manager`.
let tr = TextDomain.library
