rootProject.name = "build-plugin"
