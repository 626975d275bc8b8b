import Foundation
// Apps import one module: the storages come with the manager.
@_exported import ModelStorage
