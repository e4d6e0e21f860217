import Testing
@testable import LookResolver
@Test func builds() {}
