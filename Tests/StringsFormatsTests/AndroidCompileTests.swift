import Foundation
import Strings
import Testing
import TestPrograms
@testable import StringsFormats

/// Every Android export is compiled by Android's resource compiler (`aapt2`, Debian package `aapt`).
@Suite(.timeLimit(.minutes(10))) struct AndroidCompileTests {
    static let aapt2: String? = ["/usr/bin/aapt2", "/usr/lib/android-sdk/build-tools/debian/aapt2"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Compiles `files` (paths relative to res/) with `aapt2 compile --dir`; returns its status and output.
    static func compile(_ files: FormatFiles) throws -> (status: Int32, output: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-aapt2-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let res = root.appendingPathComponent("res")
        try files.write(to: res.path)
        let (status, output, errors) = try runProgram(aapt2!, ["compile", "--dir", res.path, "-o", root.appendingPathComponent("compiled.zip").path],
                                                     timeout: 120)
        return (status, output + errors)
    }

    @Test(.enabled(if: aapt2 != nil, "aapt2 is not installed (Debian package 'aapt'; make test installs it): Android exports not compiled"))
    func theShippedCatalogsCompile() throws {
        let files = try AndroidResourcesFormat().write(try CatalogFixtures.shipped())
        #expect(files.files.count == 52)
        #expect(files.files["values-b+zh+Hant/strings.xml"] != nil)
        #expect(files.files["values-iw/strings.xml"] == files.files["values-he/strings.xml"])
        let result = try Self.compile(files)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: aapt2 != nil, "aapt2 is not installed (Debian package 'aapt'; make test installs it)"))
    func escapingSurvivesTheCompiler() throws {
        let content = CatalogContent(source: [
            .init(key: "escape.apostrophe", message: "It's {name}'s \"quoted\" text"),
            .init(key: "escape.at", message: "@mention me"),
            .init(key: "escape.question", message: "?really"),
            .init(key: "escape.spaces", message: "  two leading, trailing  "),
            .init(key: "escape.markup", message: "a < b & c > d \\ e"),
            .init(key: "escape.percentPlain", message: "50% off, 20% more", description: "A -- B --- C \\ D\nsecond line -", maxLength: 30),
            .init(key: "escape.percent", message: "{count, plural, one {# is 100%} other {# are 100%}}"),
        ])
        let files = try AndroidResourcesFormat().write(content)
        let result = try Self.compile(files)
        #expect(result.status == 0, "\(result.output)")
        let back = try AndroidResourcesFormat().read(files)
        #expect(back.source == content.source)
    }

    @Test(.enabled(if: aapt2 != nil, "aapt2 is not installed (Debian package 'aapt'; make test installs it)"))
    func aapt2RejectsABrokenResourceSoTheCheckCanFail() throws {
        let broken = FormatFiles(["values/strings.xml": Array("<resources><string name=\"a\">%s and %d</string><string name=\"a\">x</string></resources>".utf8)])
        #expect(try Self.compile(broken).status != 0)
    }
}
