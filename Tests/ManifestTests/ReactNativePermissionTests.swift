@testable import Manifest
import XCTest

/// The JavaScript tokenizer and the `initHealthKit` permission scan.
final class ReactNativePermissionTests: XCTestCase {
    func scan(_ text: String, path: String = "apps/x/src/health.ts") -> ReactNativeHealthScan {
        ReactNativeHealthScan.scan([JavaScriptFile(path: path, text: text)])
    }

    // MARK: Tokenizer

    func testStringsTemplatesCommentsAndRegexAreSingleTokens() {
        let text = #"""
        const a = 'it\'s // not a comment';
        const b = `x ${ {k: '}'}.k } y ${`nested ${1}`}`; // trailing ) comment
        /* block ( comment
           over two lines */ const c = /['"(]/g.test(a) ? 1 : 2;
        const d = x / 2 / y;
        """#
        let file = JavaScriptFile(path: "a.js", text: text)
        let strings = file.tokens.filter { $0.kind == .string }
        XCTAssertEqual(strings.map(\.value), ["it's // not a comment"])
        let templates = file.tokens.filter { $0.kind == .template }
        XCTAssertEqual(templates.count, 1)
        XCTAssertEqual(templates.first?.line, 2)
        XCTAssertEqual(file.comments.map(\.line), [2, 3])
        XCTAssertEqual(file.comments.last?.endLine, 4)
        XCTAssertEqual(file.tokens.filter { $0.kind == .regex }.map(\.text), [#"/['"(]/g"#])
        XCTAssertEqual(file.tokens.filter { $0.isPunctuator("/") }.count, 2, "division stays division")
        let d = file.tokens.first { $0.isIdentifier("d") }
        XCTAssertEqual(d?.line, 5)
        XCTAssertEqual(d?.column, 7)
        // Every bracket is matched: nothing inside strings, templates, comments or the regex counted.
        for (index, token) in file.tokens.enumerated() where token.isOpener || token.isCloser {
            XCTAssertNotNil(file.partner[index], "\(token.text) at \(token.line):\(token.column)")
        }
    }

    /// Dart's strings: a triple-quoted one spans lines and holds apostrophes, a raw one keeps its
    /// backslash, and `${…}` with quotes inside stays in the string; the code after is tokenized right.
    func testDartStringsAreSingleTokens() {
        let file = JavaScriptFile(path: "lib/health.dart", text: #"""
            const help = '''
            Don't worry: we'll ask first.
            ''';
            final path = r'C:\data\';
            final label = 'steps: ${counts['steps']}';
            final ratio = total / 2;
            Health().requestAuthorization([HealthDataType.STEPS]);
            """#)
        XCTAssertEqual(file.tokens.filter { $0.kind == .string }.map(\.value),
                       ["\nDon't worry: we'll ask first.\n", #"C:\data\"#, "steps: ${counts['steps']}"])
        XCTAssertEqual(file.tokens.filter { $0.kind == .regex }.count, 0, "Dart has no regex literals")
        let call = file.tokens.first { $0.isIdentifier("requestAuthorization") }
        XCTAssertEqual(call?.line, 7)
        XCTAssertEqual(call?.column, 10)
    }

    func testJSXTextIsNotCode() {
        let text = """
        export const Card = () => (
          <View style={styles.card}>
            <Text>Don't {count} steps (today</Text>
            {items.map((item) => <Row key={item.id} />)}
          </View>
        );
        const next = AppleHealthKit.getStepCount;
        """
        let file = JavaScriptFile(path: "Card.tsx", text: text)
        XCTAssertEqual(file.tokens.first { $0.isIdentifier("count") }?.line, 3)
        XCTAssertEqual(file.tokens.first { $0.isIdentifier("getStepCount") }?.line, 7)
        XCTAssertFalse(file.tokens.contains { $0.kind == .string && $0.value.contains("t {count}") }, "the apostrophe opens no string")
        XCTAssertFalse(file.tokens.contains { $0.isIdentifier("steps") }, "JSX text is skipped")
        for (index, token) in file.tokens.enumerated() where token.isOpener || token.isCloser {
            XCTAssertNotNil(file.partner[index], "\(token.text) at \(token.line):\(token.column)")
        }
    }

    func testGenericsAreNotJSX() {
        let tsx = JavaScriptFile(path: "a.tsx", text: "const id = <T,>(x: T): T => x;\nconst [n, setN] = useState<number | null>(null);\nconst after = 1;")
        XCTAssertEqual(tsx.tokens.first { $0.isIdentifier("after") }?.line, 3)
        XCTAssertFalse(tsx.tokens.contains { $0.kind == .jsx })
        let ts = JavaScriptFile(path: "a.ts", text: "const call = <T>(fn: () => T): T => fn();\nconst after = 1;")
        XCTAssertFalse(ts.tokens.contains { $0.kind == .jsx })
        XCTAssertEqual(ts.tokens.first { $0.isIdentifier("after") }?.line, 2)
    }

    // MARK: Permission scan

    func testLiteralPermissionsWithComments() {
        let result = scan("""
        import AppleHealthKit, { HealthKitPermissions } from 'react-native-health';

        const permissions: HealthKitPermissions = {
          permissions: {
            read: [
              AppleHealthKit.Constants.Permissions.StepCount, // steps ], not the end
              /* heart rate, for the card ] */ AppleHealthKit.Constants.Permissions.HeartRate,
              // AppleHealthKit.Constants.Permissions.Weight,
            ],
            write: [],
          },
        };

        AppleHealthKit.initHealthKit(permissions, (error: string) => {});
        """)
        XCTAssertEqual(result.requests.count, 1)
        XCTAssertEqual(result.readTypes, ["stepCount", "heartRate"])
        XCTAssertEqual(result.writeTypes, [])
        XCTAssertEqual(result.requests[0].location, FileLocation(file: "apps/x/src/health.ts", line: 14, column: 16))
        XCTAssertEqual(result.requests[0].read.map(\.location.line), [6, 7])
        XCTAssertEqual(result.notes, [])
    }

    func testDestructuringAliasesSpreadsAndStrings() {
        let result = scan("""
        import HK from 'react-native-health';

        const { Permissions } = HK.Constants;
        const P = HK.Constants.Permissions;

        const base = {
          read: [Permissions.StepCount, P.HeartRate], // shared with the widget
          write: [],
        };
        const extra = ['Weight'];

        const options = {
          permissions: {
            ...base,
            read: [...base.read, ...extra, HK.Constants.Permissions.SleepAnalysis, Permissions.Caffeine, Permissions.Bogus],
            write: [Permissions.Workout],
          },
        };

        export function connect() {
          HK.initHealthKit(options, () => {});
        }
        """)
        XCTAssertEqual(result.requests.first?.read.map(\.constant), ["StepCount", "HeartRate", "Weight", "SleepAnalysis", "Caffeine", "Bogus"])
        XCTAssertEqual(result.readTypes, ["stepCount", "heartRate", "bodyMass", "sleepAnalysis", "dietaryCaffeine"])
        XCTAssertEqual(result.writeTypes, ["workout"])
        XCTAssertEqual(result.notes, [
            "apps/x/src/health.ts:21: `permissions.read` names `Bogus`, which is not a react-native-health permission (the library silently drops it)",
        ])
    }

    func testShorthandAndTheNearestDeclarationWin() {
        let result = scan("""
        import AppleHealthKit from 'react-native-health';

        const permissions = { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] };

        export const connect = () => {
          const permissions = { read: [AppleHealthKit.Constants.Permissions.MindfulSession], write: ['MindfulSession'] };
          AppleHealthKit.initHealthKit({ permissions }, () => {});
        };
        """)
        XCTAssertEqual(result.readTypes, ["mindfulSession"])
        XCTAssertEqual(result.writeTypes, ["mindfulSession"])
    }

    func testWhatCannotBeResolvedIsNoted() {
        let result = scan("""
        import AppleHealthKit from 'react-native-health';
        import { healthOptions } from './config';

        AppleHealthKit.initHealthKit(healthOptions, () => {});
        AppleHealthKit.initHealthKit(buildOptions(), () => {});
        AppleHealthKit.initHealthKit({ permissions: { read: readTypes(), write: [] } }, () => {});
        AppleHealthKit.initHealthKit({ read: [] }, () => {});
        """)
        XCTAssertEqual(result.requests.count, 4)
        XCTAssertTrue(result.readTypes.isEmpty)
        XCTAssertEqual(result.notes, [
            "apps/x/src/health.ts:4: initHealthKit options `healthOptions` is imported from another module; only declarations in the same file are followed",
            "apps/x/src/health.ts:5: initHealthKit options `buildOptions()` is computed by a function call; not followed",
            "apps/x/src/health.ts:6: `permissions.read` `readTypes()` is computed by a function call; not followed",
            "apps/x/src/health.ts:7: initHealthKit options have no `permissions`: react-native-health answers \"permissions must be provided in the initialization options\"",
        ])
    }

    func testImportWithoutInitHealthKitIsNoted() {
        let result = scan("import AppleHealthKit from 'react-native-health';\nAppleHealthKit.getStepCount({}, () => {});\n")
        XCTAssertTrue(result.requests.isEmpty)
        XCTAssertEqual(result.notes, ["apps/x/src/health.ts: react-native-health is imported but no initHealthKit call was found; the types the app asks for are unknown"])
    }

    /// A Vue or Svelte component is read through its `<script>` blocks only, at the lines and
    /// columns written: the template's `{{ … }}` and the style never become code.
    func testSingleFileComponentsAreReadThroughTheirScriptBlocks() {
        let file = JavaScriptFile(path: "src/pages/Steps.vue", text: """
            <template>
              <q-btn @click="connect()">{{ isAuthorized(x) ? 'yes' : 'no' }}</q-btn>
            </template>

            <script setup lang="ts">
            import healthstore from '@shared/healthstore'
            const ok = await healthstore.isAuthorized({ read: ['steps'] })
            </script>

            <style>.a { color: red }</style>
            """)
        XCTAssertEqual(file.tokens.first?.text, "import")
        XCTAssertEqual(file.tokens.first?.line, 6)
        let call = file.tokens.first { $0.text == "isAuthorized" }
        XCTAssertEqual(call?.line, 7, "the template's isAuthorized is not code")
        XCTAssertEqual(call?.column, 30)
        XCTAssertFalse(file.tokens.contains { $0.text == "color" || $0.text == "template" })
        XCTAssertEqual(file.quote(file.tokens.firstIndex { $0.text == "isAuthorized" }!), "const ok = await healthstore.isAuthorized({ read: ['steps'] })")
        XCTAssertTrue(ReactNativeDiscovery.isAppScript("src/pages/Steps.vue"))
    }

    func testEveryWrapperNameLeadsToCatalogueTypes() {
        for (wrapper, table) in HealthKitWrapper.tables {
            for (name, types) in table {
                for type in types where type != "-" { XCTAssertNotNil(HealthKitType.named(type), "\(wrapper.rawValue): \(name) → \(type)") }
            }
        }
        XCTAssertEqual(HealthKitWrapper.reactNativeHealth.types(named: "Caffeine")?.map(\.name), ["dietaryCaffeine"])
        XCTAssertEqual(HealthKitWrapper.kingstinct.types(named: "HKQuantityTypeIdentifierVO2Max")?.map(\.name), ["vo2Max"])
        XCTAssertEqual(HealthKitWrapper.kingstinct.types(named: "HKCorrelationTypeIdentifierBloodPressure")?.map(\.kind), [.correlation])
        XCTAssertEqual(HealthKitWrapper.flutterHealth.types(named: "SLEEP_DEEP")?.map(\.name), ["sleepAnalysis"])
        XCTAssertEqual(HealthKitWrapper.capacitorHealth.types(named: "bloodPressure")?.map(\.name), ["bloodPressureSystolic", "bloodPressureDiastolic"])
        XCTAssertNil(HealthKitWrapper.flutterHealth.types(named: "HEART_RATE_VARIABILITY_RMSSD"), "Android only")
        XCTAssertEqual(HealthKitWrapper.cordovaHealth.types(named: "gender")?.count, 0, "known to the plugin, never asked of HealthKit")
        XCTAssertEqual(HealthKitWrapper.cordovaHealth.types(named: "resp_rate")?.map(\.name), ["respiratoryRate"])
    }

    // MARK: JSON with lines

    func testLocatedJSONKeepsLinesAndReportsErrors() throws {
        let json = try LocatedJSON.parse(Data("{\n  \"expo\": {\n    \"name\": \"Stride\",\n    \"version\": -1.5\n  }\n}\n".utf8), file: "app.json")
        XCTAssertEqual(json["expo"]?["name"]?.string, "Stride")
        XCTAssertEqual(json["expo"]?["name"]?.line, 3)
        XCTAssertEqual(json["expo"]?.entries?.first?.keyLine, 3)
        XCTAssertEqual(json["expo"]?["version"]?.plistValue, .real(-1.5))
        XCTAssertThrowsError(try LocatedJSON.parse(Data("{\n  \"a\": 1\n  \"b\": 2\n}".utf8), file: "app.json")) { error in
            let error = (error as! InputError).problems[0]
            XCTAssertEqual(error.location.line, 3)
            XCTAssertTrue(error.message.contains("expected ',' or '}'"), error.message)
        }
    }
}
