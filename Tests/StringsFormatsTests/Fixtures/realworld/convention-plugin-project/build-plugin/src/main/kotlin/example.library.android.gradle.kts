plugins {
    id("com.android.library")
}

android {
    lint {
        @Suppress("UnstableApiUsage")
        lintConfig = isolated.rootProject.projectDirectory.file("config/lint/lint.xml").asFile
    }
}
