plugins {
    id("example.dependency.check")
}
