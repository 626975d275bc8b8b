import Testing
@testable import SQLiteStorage
@Test func placeholder() {}
