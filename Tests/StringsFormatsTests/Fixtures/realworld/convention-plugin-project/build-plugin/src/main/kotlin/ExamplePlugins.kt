object ExamplePlugins {
    object App {
        const val android = "example.app.android"
    }
    object Library {
        const val android = "example.library.android"
        const val kmp = "example.library.kmp"
    }
}
