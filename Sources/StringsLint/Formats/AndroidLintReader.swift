import Strings
import StringsFormats

/// Android resources for the linter: positions are each resource's element in its `strings.xml`.
struct AndroidLintReader: FormatLintReader {
    func reading(_ files: FormatFiles) -> FormatLintReading {
        var reading = FormatLintReading()
        let document = AndroidResourceDocument(files: files)
        for file in document.files {
            reading.localeFiles[file.locale.identifier] = .init(file: file.path, position: .start)
            for resource in file.resources {
                let key = SelectCase.parse(androidName: resource.name)?.name ?? resource.name
                let slot = FormatLintReading.placeKey(locale: file.locale.identifier, key: key)
                if reading.places[slot] == nil { reading.places[slot] = .init(file: file.path, position: resource.position) }
            }
        }
        let (catalog, problems) = document.catalogSkippingProblems()
        let (content, contentProblems) = catalog.contentSkippingProblems()
        reading.content = content
        reading.problems = problems + contentProblems
        return reading
    }
}
