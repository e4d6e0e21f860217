plugins {
    id("com.android.application")
}

android {
    lint {
        warningsAsErrors = false
        abortOnError = true
        checkDependencies = true
        @Suppress("UnstableApiUsage")
        lintConfig = isolated.rootProject.projectDirectory.file("config/lint/lint.xml").asFile
    }
}
