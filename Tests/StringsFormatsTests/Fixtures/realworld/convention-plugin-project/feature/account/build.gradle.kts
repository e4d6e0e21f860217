plugins {
    id(ExamplePlugins.Library.android)
}

android {
    namespace = "org.example.feature.account"
}
