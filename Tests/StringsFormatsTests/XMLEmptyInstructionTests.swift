import Testing
@testable import StringsFormats

/// The byte scan for `<?name?>` made before `XMLParser` runs (see `XMLEmptyInstructionCheck`); positions counted by hand.
@Suite(.timeLimit(.minutes(10))) struct XMLEmptyInstructionTests {
    @Test("<?name?> is found where it starts: line and column in Unicode scalars")
    func found() {
        #expect(XMLEmptyInstructionCheck.firstEmptyInstruction(Array("<?xml?><a/>".utf8)) == FilePosition(line: 1, column: 1))
        // Line 2 starts with "é<b>" (4 scalars, 5 bytes), so the instruction is at column 5.
        #expect(XMLEmptyInstructionCheck.firstEmptyInstruction(Array("<a>\né<b><?pi?></b></a>".utf8)) == FilePosition(line: 2, column: 5))
        // The first candidate has data; the second is empty: `<?xml version="1.0"?>` is 21 characters and `<a>` 3,
        // so it starts at column 25.
        #expect(XMLEmptyInstructionCheck.firstEmptyInstruction(Array("<?xml version=\"1.0\"?><a><?x?></a>".utf8)) == FilePosition(line: 1, column: 25))
    }

    @Test("instructions with data, no name, or cut off at the end are not refused")
    func notFound() {
        for text in ["<?xml version=\"1.0\"?><a/>", "<a><??></a>", "<a>x</a><?pi", "<a>x</a><?pi?", "<a>1 <? 2</a>", "", "<", "<?"] {
            #expect(XMLEmptyInstructionCheck.firstEmptyInstruction(Array(text.utf8)) == nil, "\(text)")
        }
    }
}
