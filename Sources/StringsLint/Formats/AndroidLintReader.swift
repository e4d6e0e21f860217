import Strings
import StringsFormats

/// Android resources for the linter: every `values*/*.xml` of the `res/` folder, merged per folder as Android
/// merges them; positions are each resource's element in its file.
struct AndroidLintReader: FormatLintReader {
    /// A Compose Multiplatform `composeResources` folder: quotes are text, not Android's escapes.
    var composeResources = false

    func reading(_ files: FormatFiles) -> FormatLintReading {
        var reading = FormatLintReading()
        let document = AndroidResourceDocument(files: files, everyValuesFile: true, quotesAreText: composeResources)
        reading.integerPlurals = true
        let englishNames = Set(document.files.first { $0.locale == .english }?.resources.map(\.name) ?? [])
        for file in document.files {
            reading.localeFiles[file.locale.identifier] = .init(file: file.path, position: .start)
            // tools:ignore in English applies to every locale; in a locale's file, to that locale.
            let scope = file.locale == .english ? "*" : file.locale.identifier
            if !file.ignoredIssues.isEmpty {
                reading.suppressions[FormatLintReading.placeKey(locale: scope, key: "*"), default: []].formUnion(AndroidLintIssues.checks(for: file.ignoredIssues))
            }
            for resource in file.resources {
                let key = SelectCase.parse(androidName: resource.name, among: englishNames)?.name ?? resource.name
                if !resource.ignoredIssues.isEmpty {
                    reading.suppressions[FormatLintReading.placeKey(locale: scope, key: key), default: []].formUnion(AndroidLintIssues.checks(for: resource.ignoredIssues))
                }
                let slot = FormatLintReading.placeKey(locale: file.locale.identifier, key: key)
                if reading.places[slot] == nil { reading.places[slot] = .init(file: resource.file ?? file.path, position: resource.position) }
            }
        }
        let (catalog, problems) = document.catalogSkippingProblems()
        let (content, contentProblems) = catalog.contentSkippingProblems()
        reading.content = content
        reading.problems = problems + contentProblems
        return reading
    }
}
