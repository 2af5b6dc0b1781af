import Report
import XCTest

/// How `check --format` and `--output` pair: a file beside its format, or by position among the
/// formats written without one; a file one format off is refused with the pairing meant.
final class ReportPlanTests: XCTestCase {
    private func options(_ values: String...) -> [FormatOption] { values.map { FormatOption(argument: $0)! } }

    private func pairs(_ plan: ReportPlan) -> [String] { plan.reports.map { "\($0.format.rawValue)>\($0.output)" } }

    private func refusal(_ formats: [FormatOption], _ outputs: [String], file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            let plan = try ReportPlan(formats: formats, outputs: outputs)
            XCTFail("accepted: \(pairs(plan))", file: file, line: line)
            return []
        } catch { return error.lines }
    }

    func testEachFileBesideItsFormat() throws {
        let plan = try ReportPlan(formats: options("text", "sarif=out/a.sarif", "junit=a.xml", "json=a.json", "markdown=c.md", "gitlab=gl.json"), outputs: [])
        XCTAssertEqual(pairs(plan), ["text>-", "sarif>out/a.sarif", "junit>a.xml", "json>a.json", "markdown>c.md", "gitlab>gl.json"])
        XCTAssertNil(FormatOption(argument: "pdf=a.pdf"))
        XCTAssertNil(FormatOption(argument: "sarif="))
        XCTAssertEqual(FormatOption(argument: "sarif=a=b.sarif")?.output, "a=b.sarif", "only the first = splits")
    }

    /// Today's command lines keep working: each --format takes the --output in its position.
    func testPositionalPairingStillWorksWhenConsistent() throws {
        XCTAssertEqual(pairs(try ReportPlan(formats: options("sarif", "junit", "text"), outputs: ["a.sarif", "a.xml"])),
                       ["sarif>a.sarif", "junit>a.xml", "text>-"])
        XCTAssertEqual(pairs(try ReportPlan(formats: [], outputs: ["report.txt"])), ["text>report.txt"])
        XCTAssertEqual(pairs(try ReportPlan(formats: [], outputs: [])), ["text>-"])
        XCTAssertEqual(pairs(try ReportPlan(formats: options("json", "github"), outputs: ["-", "/dev/stdout"])), ["json>-", "github>/dev/stdout"])
        // SARIF and GitLab reports are JSON documents: a .json name is theirs too.
        XCTAssertEqual(pairs(try ReportPlan(formats: options("sarif", "gitlab"), outputs: ["a.sarif.json", "gl-code-quality.json"])),
                       ["sarif>a.sarif.json", "gitlab>gl-code-quality.json"])
        // Formats with a file take none of the positional outputs.
        XCTAssertEqual(pairs(try ReportPlan(formats: options("sarif=a.sarif", "junit", "markdown"), outputs: ["a.xml", "comment.md"])),
                       ["sarif>a.sarif", "junit>a.xml", "markdown>comment.md"])
    }

    /// The command line of the issue, as SwiftLint users write it: every file would have got the
    /// next format's content. Each contradiction is named, then the pairing meant.
    func testAFileOneFormatOffIsRefusedWithThePairingMeant() {
        let lines = refusal(options("text", "sarif", "junit"), ["a.sarif", "a.xml"])
        XCTAssertEqual(lines, [
            "a.sarif: error: --format text would be written to a.sarif, but a .sarif file is for sarif",
            "a.xml: error: --format sarif would be written to a.xml, but a .xml file is for junit",
            "did you mean: --format text --format sarif=a.sarif --format junit=a.xml",
        ])
        XCTAssertEqual(refusal(options("text=report.md"), []).last, "did you mean: --format text --format markdown=report.md")
        XCTAssertEqual(refusal(options("github", "json"), ["a.json"]).first,
                       "a.json: error: --format github would be written to a.json, but a .json file is for json")
        XCTAssertEqual(refusal(options("json", "junit"), ["REPORT.XML", "b.json"]).last, "did you mean: --format json=b.json --format junit=REPORT.XML")
    }

    func testMoreOutputsThanFormatsAndOneFileTwiceAreRefused() {
        XCTAssertEqual(refusal(options("json"), ["a.json", "b.json"]).count, 1)
        XCTAssertTrue(refusal(options("sarif=a.sarif"), ["b.sarif"])[0].contains("--format sarif=FILE"))
        XCTAssertEqual(refusal(options("sarif=a.sarif", "sarif"), ["a.sarif"]).first, "a.sarif: error: two reports would be written to this file")
    }
}
