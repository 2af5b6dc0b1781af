@testable import Checklist
import Foundation
import HealthStore
import Manifest
@testable import Report
import SiteBuild
import Summary
import TestSupport
import XCTest

/// The result format is defined once (`ResultFormat`): what `check --format json` encodes is what
/// `build --results` decodes, through the strict parser and its limits, and back to the same bytes.
final class ResultFormatTests: XCTestCase {
    /// The fixture's audits with their simulation, as `check --format json` writes them.
    private func simulatedResult() throws -> String {
        _ = try OutputFixture.audits()
        let options = BuildOptions(siteDirectory: OutputFixture.site, templatesDirectory: Repository.templates,
                                   clock: FixedClock(DayDate(year: 2026, month: 4, day: 1)), log: SilentLog())
        let state = try Pipeline.auditAndSimulate.run(options)
        var context = OutputFixture.context
        context.summaries = state.summaries
        context.title = "Fleet"
        context.source = ResultSource(commit: String(repeating: "ab", count: 20), urlTemplate: "https://forge.example/r/blob/{commit}/{path}#L{line}", sitePath: "Site")
        return JSONReport.render(state.audits, context: context)
    }

    private func decode(_ text: String) throws -> ResultFormat.Document {
        try ResultReader.decode(JSONNode(JSONParser.parse(Data(text.utf8))))
    }

    /// Encode, parse strictly, decode: the same document, and encoded again the same bytes.
    func testAResultRoundTripsThroughTheStrictParser() throws {
        let text = try simulatedResult()
        let document = try decode(text)
        XCTAssertFalse(document.apps.isEmpty)
        XCTAssertTrue(document.apps.contains { !($0.simulation?.days.isEmpty ?? true) }, "the result carries summaries")
        XCTAssertEqual(JSONReport.encoded(document).serialized(), text, "decoded and encoded again: the bytes check wrote")
        XCTAssertEqual(try decode(JSONReport.encoded(document).serialized()), document)
    }

    /// Every shape the format has: members left out when empty (`@Omitted`), null lines, each kind
    /// of usage string, suppressions, errors and crashes in a simulation, exact fractions.
    func testEveryShapeOfTheFormatRoundTrips() throws {
        let location = ResultFormat.Location(path: "Site/apps/x/Info.plist", line: nil, column: nil)
        let lined = ResultFormat.Location(path: "Site/apps/x/A.swift", line: BoundedInt(12), column: BoundedInt(5))
        let error = ResultFormat.HealthError(code: BoundedInt(HKErrorCode.errorAuthorizationNotDetermined.rawValue), name: "errorAuthorizationNotDetermined",
                                             description: "Authorization not determined")
        let day = ResultFormat.Day(
            day: "2026-03-29", hours: BoundedDouble(23), metrics: [.init(name: "Steps", type: "stepCount", held: "1,234", seen: "—",
                                                                            visibility: .init(state: "neverAsked", error: error))],
            workouts: [.init(activity: "Running", start: "07:00", duration: "30 min", energy: "300 kcal", distance: "5 km")],
            workoutsVisibility: .init(state: "readNotGranted", error: nil), stepsByHour: [nil, BoundedDouble(0.1), BoundedDouble(1e9)],
            hourLabels: ["00", "01", "03"], clockTicks: [.init(x: BoundedDouble(1.0 / 3), label: "06:00")],
            heartRate: [.init(x: BoundedDouble(0.5), bpm: BoundedDouble(61.25))], heartRateVisibility: .init(state: "visible", error: nil),
            sleep: [.init(stage: "Deep", start: BoundedDouble(0.1), end: BoundedDouble(0.1))], sleepVisibility: .init(state: "notSet", error: nil),
            stepsSeen: nil, stepsHeld: BoundedDouble(1234), sleepSeenHours: BoundedDouble(7.5), sleepHeldHours: BoundedDouble(7.5))
        let app = ResultFormat.App(
            id: "x", name: "X \u{202E}", kind: .swift, verdict: .incomplete, counts: .init(errors: 1, warnings: 0, notes: 0, suppressed: 1),
            requested: .init(read: ["stepCount"], share: []), unresolvedRequests: .init(read: ["A.swift:3"], share: []),
            answers: [.init(question: .readStatusProbed, text: ReviewQuestion.readStatusProbed.text, status: .yes, mark: .fail, reason: "r", evidence: [.init(location: lined, quote: "q")],
                            ruleIds: ["usage-string-missing"])],
            findings: [.init(ruleId: "usage-string-missing", severity: .error, message: "m", location: location, quote: "", target: "X",
                             fingerprint: "f", suppressed: .init(origin: .inline, reason: "ok", location: lined),
                             context: .init(before: ["a"], after: [], indent: "  "))],
            notes: ["n"], discovery: [.init(text: "t", origin: "o", location: nil, note: true)],
            dependencies: [.init(package: "p", ecosystem: "npm", version: nil, direct: false, location: lined, quote: "q", writes: true,
                                 workoutSession: false, clinical: false, sdk: true)],
            declared: .init(usageStrings: [.declared(key: "NSHealthShareUsageDescription", origin: "Info.plist", location: location, value: nil, valueType: "array"),
                                           .absent(key: "NSHealthUpdateUsageDescription"),
                                           .translated(key: "NSHealthShareUsageDescription", locale: "de", source: "UTF-16", value: "Schritte")],
                            entitlements: nil, targets: [.init(id: "x", name: "X", extensionPoint: nil, swiftFiles: BoundedInt(3), javaScriptFiles: nil,
                                                               infoPlist: .init(path: "Site/apps/x/Info.plist", format: "binary"))],
                            reactNativeRequests: [.init(location: lined, read: [.init(constant: "Steps", type: nil)], write: [])],
                            inputFiles: ["Site/apps/x/Info.plist"], identity: nil),
            simulation: .init(days: [day], scenarios: [.init(id: "s", title: "S", summary: "", steps: [
                .init(index: BoundedInt(0), action: "a", outcome: "o", status: nil, error: error, samplesSeen: BoundedInt(2),
                      crash: .init(exceptionName: "NSInvalidArgumentException", reason: "r"), skipped: false),
            ])], unmodelledTypes: ["clinicalNote"]))
        for (changed, baselined, incomplete) in [(Int?.none, Int?.none, Int?.none), (3, 0, 1)] {
            let document = ResultFormat.Document(
                schemaVersion: JSONReport.schemaVersion, tool: .init(name: ToolInfo().name, version: "9.9.9", informationUri: "https://x"),
                site: "Site", title: "T", source: .init(commit: nil, urlTemplate: nil, sitePath: "."), apps: [app],
                summary: .init(apps: 1, findings: .init(errors: 1, warnings: 0, notes: 0, suppressed: 1),
                               verdicts: .init(passes: 0, needsWork: 0, fails: 0, incomplete: incomplete), outsideChangedLines: changed, baselined: baselined))
            let text = JSONReport.encoded(document).serialized()
            XCTAssertEqual(text.contains("\"baselined\":"), baselined != nil, "left out when nil, never null")
            XCTAssertEqual(text.contains("\"incomplete\":"), incomplete != nil)
            XCTAssertTrue(text.contains("\"line\": null"), "an optional member is written null")
            XCTAssertEqual(try decode(text), document)
            XCTAssertEqual(JSONReport.encoded(try decode(text)).serialized(), text)
        }
    }

    /// The writer's bytes are those of the format's members in their declared order: `schemaVersion`
    /// first, two-space indents, a usage string's members by its origin.
    func testTheEncodingKeepsTheDeclaredOrder() throws {
        let text = try simulatedResult()
        XCTAssertTrue(text.hasPrefix("{\n  \"schemaVersion\": 3,\n  \"tool\": {\n    \"name\": \"healthaudit\",\n"), text)
        let keys = try XCTUnwrap(JSONParser.parse(Data(text.utf8)).objectKeys)
        XCTAssertEqual(keys, ["schemaVersion", "tool", "site", "title", "source", "apps", "summary"])
    }

    /// A decoding problem names the field's place in the document, whatever the type.
    /// Unsigned integers past `Int.max` are numbers, not a trap (`Int(value)` of them would crash).
    func testUnsignedIntegersBeyondIntAreEncodedAsNumbers() throws {
        struct Sizes: Encodable { var small: UInt64 = 7; var huge: UInt64 = .max; var list: [UInt] = [.max] }
        let value = try JSONValueEncoder().encode(Sizes())
        XCTAssertEqual(value.serialized(), JSONValue.object([("small", .int(7)), ("huge", .number(Double(UInt64.max))), ("list", .array([.number(Double(UInt.max))]))]).serialized())
    }

    func testADecodingProblemNamesTheField() throws {
        let text = try simulatedResult()
        func problem(_ edit: (String) -> String) -> String {
            do { _ = try ResultReader.read(Data(edit(text).utf8)); return "read" } catch { return error.description }
        }
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"swiftFiles\": ", with: "\"swiftFiles\": \"many\", \"was\": ") },
                       "apps[0].declared.targets[0].swiftFiles: expected an integer, found a string")
        let kind = try decode(text).apps[0].kind.rawValue
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"kind\": \"", with: "\"kind\": \"android-") }, "apps[0].kind: 'android-\(kind)' is not one of "
                       + AppKind.allCases.map(\.rawValue).joined(separator: ", "))
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"informationUri\"", with: "\"informationURL\"") }, "tool.informationUri: missing")
        let simulated = try XCTUnwrap(decode(text).apps.firstIndex { $0.simulation != nil })
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"unmodelledTypes\": ", with: "\"unmodelledTypes\": [7], \"was\": ") },
                       "apps[\(simulated)].simulation.unmodelledTypes[0]: expected a string, found a number")
        let state = try XCTUnwrap(decode(text).apps[simulated].simulation?.days.first?.heartRateVisibility.state)
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"heartRateVisibility\": {\n              \"state\": \"", with: "\"heartRateVisibility\": {\n\"state\": \"blurred-") },
                       "apps[\(simulated)].simulation.days[0].heartRateVisibility: 'blurred-\(state)' is not a visibility (visible, readNotGranted, neverAsked or failed with an error, notSet)")
    }
}

private extension JSONValue {
    var objectKeys: [String]? {
        guard case .object(let members) = self else { return nil }
        return members.map(\.0)
    }
}
