plugins {
    id("example.library.kmp")
}
