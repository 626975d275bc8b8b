import Foundation
// Apps import one module: the storages and the widget toolkit come with the manager.
@_exported import GtkKit
@_exported import ModelStorage
