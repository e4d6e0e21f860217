rootProject.name = "components"

pluginManagement {
    includeBuild("../build-plugin")
}

include(":ui:bolt")
