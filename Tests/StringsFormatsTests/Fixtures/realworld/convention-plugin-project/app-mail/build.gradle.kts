plugins {
    id(ExamplePlugins.App.android)
}

android {
    namespace = "org.example.mailer"
}
