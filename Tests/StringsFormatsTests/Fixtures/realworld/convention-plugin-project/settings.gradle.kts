rootProject.name = "mailer"

pluginManagement {
    includeBuild("build-plugin")
}

include(":app-mail")
include(":feature:account")

includeBuild("components")
