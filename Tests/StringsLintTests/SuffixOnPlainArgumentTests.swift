import Foundation
@testable import StringsLint
import Strings
import Testing

/// `suffix-on-plain-argument`: an ending joined to a name argument in a language whose endings change form with
/// the word they attach to.
@Suite(.timeLimit(.minutes(10))) struct SuffixOnPlainArgumentTests {
    let push = #"{"k": "Notifications from {appName} reach this device."}"#
    let switchTo = #"{"k": "Switch to {plan}"}"#

    private func joins(_ locale: String, _ source: String, _ translation: String) throws -> [LintFinding] {
        try findings(of: .suffixOnPlainArgument, locale, source: source, translation: translation)
    }

    @Test func anEndingInTheLocalesScriptIsReportedAtItsFirstLetter() throws {
        let reported = try joins("or", push, "{appName}ର ବିଜ୍ଞପ୍ତି ଏହି ଡିଭାଇସରେ ପହଞ୍ଚୁଛି।")
        // `{"k": "` is 7 columns and {appName} 9: the ending's first letter is column 17.
        #expect(reported.map { Spot($0) } == [Spot("suffix-on-plain-argument", .warning, "or.json", 1, 17)])
        #expect(reported.map(\.subject) == ["appName:ର"])
        #expect(reported.first?.message.contains("“ର” is joined to {appName}") == true)
    }

    @Test func hyphenApostropheAndColonJoinersCount() throws {
        #expect(try joins("bn", push, "{appName}-এর বিজ্ঞপ্তি এই ডিভাইসে পৌঁছাচ্ছে।").map(\.subject) == ["appName:-এর"])
        #expect(try joins("tr", switchTo, "{plan}'a geç").map(\.subject) == ["plan:'a"])
        #expect(try joins("fi", switchTo, "Vaihda {plan}:iin").map(\.subject) == ["plan::iin"])
        #expect(try joins("fi", #"{"k": "{appName} Team"}"#, "{appName}-tiimi").count == 1)
    }

    @Test func aNounCarryingTheEndingIsClean() throws {
        #expect(try joins("or", push, "{appName} ଆପର ବିଜ୍ଞପ୍ତି ଏହି ଡିଭାଇସରେ ପହଞ୍ଚୁଛି।").isEmpty)
        #expect(try joins("ta", switchTo, "{plan} திட்டத்திற்கு மாறு").isEmpty)
        #expect(try joins("fi", #"{"k": "{appName} Team"}"#, "{appName} – tiimi").isEmpty)
        #expect(try joins("hu", push, "A(z) {appName} értesítései megérkeznek erre az eszközre.").isEmpty)
        #expect(try joins("tr", switchTo, "{plan}, seçeneğine geç").isEmpty) // punctuation is no ending
    }

    @Test func koreanOnlyForAlternatingParticles() throws {
        #expect(try joins("ko", switchTo, "{plan}로 변경").count == 1)
        #expect(try joins("ko", switchTo, "{plan}을 선택").count == 1)
        #expect(try joins("ko", #"{"k": "{name} from {appName}"}"#, "{appName}의 {name}").isEmpty)
        #expect(try joins("ko", switchTo, "{plan} 요금제로 변경").isEmpty)
    }

    @Test func datesNumbersAndOtherLanguagesAreNotChecked() throws {
        let renews = #"{"k": "Renews {date, date, ::dMMM}"}"#
        #expect(try joins("or", renews, "{date, date, ::dMMM}ରେ ରିନ୍ୟୁ ହେବ").isEmpty)
        // A plain {count} beside its plural use is a number ("#টি ফটো").
        let photos = #"{"k": "{count, plural, one {{count} photo} other {{count} photos}}"}"#
        #expect(try joins("bn", photos, "{count, plural, one {{count}টি ফটো} other {{count}টি ফটো}}").isEmpty)
        #expect(try joins("ja", switchTo, "{plan}に変更").isEmpty)
        #expect(try joins("sv", #"{"k": "{appName} Team"}"#, "{appName}-teamet").isEmpty)
    }
}
