import Foundation
import ListViewManager

struct Post {
    let title: String
}

final class PostRow: ListRow, ModelTransfer {     // a row widget written in Swift
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: Post) { title.text = model.title }
}

let app = Application(id: "org.example.Posts")
app.onActivate { app in
    let manager = ListViewManager()
    manager.register(PostRow.self)
    manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
    manager.memoryStorage.addItems([Post(title: "Swift on GTK"), Post(title: "Sections in 4.8")], toSection: 0)
    manager.memoryStorage.addItems([Post(title: "Hello, world")], toSection: 1)
    manager.didSelect(PostRow.self) { row, post, indexPath in print("selected", post.title) }
    manager.didActivate(PostRow.self) { row, post, indexPath in print("opened", post.title) }

    let window = ApplicationWindow(application: app, title: "Posts", width: 400, height: 300)
    window.child = manager                         // the list, scrolled, its header pinned
    window.present()
}
exit(app.run())
