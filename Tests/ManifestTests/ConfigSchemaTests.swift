@testable import Manifest
import Foundation
import TestSupport
import XCTest
import Yams

/// `Site/healthaudit.schema.json`, the JSON Schema editors use to complete and check
/// `healthaudit.yml`, held against the loader: the same keys in the same places, the same closed
/// value sets, and the same verdict on real configs and on wrong ones.
final class ConfigSchemaTests: XCTestCase {
    static let schemaPath = Repository.site + "/healthaudit.schema.json"

    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: schemaPath))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    // MARK: keys

    /// Every key the loader accepts is in the schema, and the schema names no key the loader
    /// refuses; where the loader refuses unknown keys, so does the schema.
    func testTheSchemaNamesExactlyTheKeysTheLoaderReads() throws {
        let objects = try Self.objectsWithProperties()
        XCTAssertFalse(objects.isEmpty)
        var named: [String: Set<String>] = [:]
        for object in objects {
            let where_ = object.path.joined(separator: ".")
            let places = ConfigKeys.byPlace.keys.filter { Self.place($0, matches: object.path) }
            guard places.count == 1, let place = places.first, let accepted = ConfigKeys.byPlace[place] else {
                XCTFail("the schema describes a mapping at '\(where_)' where the loader reads \(places.isEmpty ? "no mapping of known keys" : "several: \(places)")")
                continue
            }
            let keys = Set(object.properties.keys)
            XCTAssertEqual(keys.subtracting(accepted), [], "the schema names keys at '\(where_)' that the loader refuses")
            XCTAssertTrue(Self.isFalse(object.node["additionalProperties"]),
                          "the loader refuses unknown keys at '\(where_)': the schema needs additionalProperties: false there")
            named[place, default: []].formUnion(keys)
        }
        for (place, accepted) in ConfigKeys.byPlace {
            XCTAssertEqual(accepted.subtracting(named[place] ?? []), [], "keys the loader reads at '\(place)' that the schema does not name")
        }
    }

    /// The loader's closed value sets are the schema's enums.
    func testClosedValueSetsAreTheLoaders() throws {
        let schema = try Self.schema()
        func values(_ pointer: String) throws -> Set<String> {
            let node = try XCTUnwrap(Self.resolve(pointer, in: schema) as? [String: Any], pointer)
            return Set(try XCTUnwrap(node["enum"] as? [String], "\(pointer) has an enum"))
        }
        XCTAssertEqual(try values("/properties/units"), Set(UnitSystem.allCases.map(\.rawValue)))
        XCTAssertEqual(try values("/properties/data/properties/biological_sex"), ConfigKeys.biologicalSexes)
        XCTAssertEqual(try values("/properties/rules/additionalProperties"), Set(RuleSetting.Level.allCases.map(\.rawValue)))
        XCTAssertEqual(try values("/definitions/app/properties/kind"), Set(AppKind.allCases.map(\.rawValue)))
        XCTAssertEqual(try values("/definitions/extension/properties/kind"), ConfigKeys.extensionKinds)
        XCTAssertEqual(try values("/definitions/answer"), Set(PermissionAnswer.allCases.map(\.rawValue)))
        // The catalogue is a table: the schema lists it whole, and a type added there must be added here.
        let types = try XCTUnwrap((Self.resolve("/definitions/healthKitType", in: schema) as? [String: Any])?["enum"] as? [String])
        XCTAssertEqual(types.count, Set(types).count, "a type listed twice")
        let catalogue = Set(HealthKitType.all.map(\.name))
        XCTAssertEqual(catalogue.subtracting(types), [], "types of the catalogue missing from the schema")
        XCTAssertEqual(Set(types).subtracting(catalogue), [], "types in the schema that the catalogue does not know")
        // Steps written alone are actions the loader knows (the others need an argument).
        let alone = try values("/definitions/step/oneOf/0")
        XCTAssertEqual(alone.subtracting(ConfigKeys.stepActions), [])
    }

    /// The loader names its closed key sets only through `ConfigKeys`, so `byPlace` sees them all:
    /// a mapping read with an inline list of keys would escape the comparison above.
    func testTheLoaderReadsKeysOnlyThroughConfigKeys() throws {
        let source = try String(contentsOfFile: Repository.root + "/Sources/Manifest/ConfigLoader.swift", encoding: .utf8)
        let arguments = source.matches(of: /, allowed: ([^)]+)\)/).map { String($0.1) }
        XCTAssertGreaterThan(arguments.count, 8)
        for argument in arguments {
            XCTAssertTrue(argument.wholeMatch(of: /ConfigKeys\.[a-zA-Z]+/) != nil, "a mapping read with keys outside ConfigKeys: allowed: \(argument)")
        }
    }

    // MARK: configs

    /// The configs the repository holds and the tests use — the example site's, the real-world
    /// corpus's, the inline sites of the tests, what `init` writes — load, and validate.
    func testRealConfigsValidateAgainstTheSchema() throws {
        var configs: [(name: String, text: String)] = [("Site/healthaudit.yml", try String(contentsOfFile: Repository.site + "/healthaudit.yml", encoding: .utf8))]
        let corpus = Repository.root + "/bench/realworld/configs"
        for file in try FileManager.default.contentsOfDirectory(atPath: corpus).sorted() where file.hasSuffix(".yml") {
            configs.append(("bench/realworld/configs/" + file, try String(contentsOfFile: corpus + "/" + file, encoding: .utf8)))
        }
        configs.append(("InlineApp.site", try XCTUnwrap(InlineApp.site([("pace", "Pace", nil)])["healthaudit.yml"])))
        configs.append(("InlineApp.findingsSite", try XCTUnwrap(InlineApp.findingsSite["healthaudit.yml"])))
        let discovered = AppDiscovery.find(in: Repository.site)
        XCTAssertFalse(discovered.isEmpty, "the example apps are discovered")
        configs.append(("healthaudit init of Site/", AppDiscovery.config(for: discovered, title: "Site")))
        XCTAssertGreaterThan(configs.count, 10)

        for config in configs {
            XCTAssertNoThrow(try ConfigLoader().parse(config.text, file: config.name, siteDirectory: "/site"), "\(config.name) loads")
        }
        let errors = try JSONSchema.errors(try configs.map { try Self.json(fromYAML: $0.text) }, schemaPath: Self.schemaPath)
        for (config, problems) in zip(configs, errors) {
            XCTAssertEqual(problems, [], "\(config.name) does not validate against the schema")
        }
    }

    /// Wrong configs: each is refused by the loader and by the schema.
    func testWrongConfigsFailValidation() throws {
        var wrong: [(name: String, text: String)] = [
            ("unknown top-level key", "title: x\ncolour: blue\napps: []\n"),
            ("unknown app key", "apps:\n  - id: demo\n    info_plst: Demo/Info.plist\n"),
            ("wrong kind", "apps:\n  - id: demo\n    kind: kotlin\n"),
            ("wrong extension kind", "apps:\n  - id: demo\n    extensions: [{id: widget, kind: widget}]\n"),
            ("no apps", "title: x\n"),
            ("an id that is no folder name", "apps:\n  - id: Demo App\n"),
            ("an unknown HealthKit type", "apps:\n  - id: demo\n    requested: {read: [stepcount]}\n"),
            ("an unknown type in permissions", "apps:\n  - id: demo\n    permissions: {steps: {read: granted}}\n"),
            ("a permission that is no answer", "apps:\n  - id: demo\n    permissions: {stepCount: {read: yes}}\n"),
            ("an ignore without a reason", "apps:\n  - id: demo\n    ignore: [{rule: timing-band-aid}]\n"),
            ("a rule level that does not exist", "rules: {timing-band-aid: loud}\napps: [{id: demo}]\n"),
            ("an unknown step", "apps:\n  - id: demo\n    scenarios: [{name: x, steps: [launch, fly]}]\n"),
            ("a step with two actions", "apps:\n  - id: demo\n    scenarios: [{name: x, steps: [{query: stepCount, status: stepCount}]}]\n"),
            ("an absolute path", "apps:\n  - id: demo\n    info_plist: /etc/passwd\n"),
            ("a range without its end", "summaries: {from: 2026-03-01}\napps: [{id: demo}]\n"),
            ("a list where a mapping belongs", "apps:\n  - id: demo\n    requested: [stepCount]\n"),
        ]
        let corpus = Repository.root + "/Tests/HardeningTests/Corpus/config/"
        for file in ["unknown-keys.yml", "wrong-types.yml", "bad-app-ids.yml", "absolute-paths.yml"] {
            wrong.append((file, try String(contentsOfFile: corpus + file, encoding: .utf8)))
        }
        for config in wrong {
            XCTAssertThrowsError(try ConfigLoader().parse(config.text, file: "healthaudit.yml", siteDirectory: "/site"), "the loader accepts \(config.name)")
        }
        let errors = try JSONSchema.errors(try wrong.map { try Self.json(fromYAML: $0.text) }, schemaPath: Self.schemaPath)
        for (config, problems) in zip(wrong, errors) {
            XCTAssertFalse(problems.isEmpty, "the schema accepts \(config.name)")
        }
    }

    /// The example config names its schema for the YAML language server, and a build still reads it.
    func testTheExampleConfigNamesItsSchema() throws {
        let text = try String(contentsOfFile: Repository.site + "/healthaudit.yml", encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# yaml-language-server: $schema=healthaudit.schema.json\n"), String(text.prefix(80)))
    }

    // MARK: the schema as a tree

    struct SchemaObject {
        var path: [String]
        var node: [String: Any]
        var properties: [String: Any]
    }

    /// Every object of the schema that names properties, with where it sits in a config: a key,
    /// `name[]` for a list's items, `*` for any key of a map (`additionalProperties`).
    static func objectsWithProperties() throws -> [SchemaObject] {
        let schema = try schema()
        var result: [SchemaObject] = []
        func walk(_ value: Any, _ path: [String], depth: Int) {
            guard depth < 40, var node = value as? [String: Any] else { return }
            if let reference = node["$ref"] as? String, let target = resolve(String(reference.dropFirst()), in: schema) as? [String: Any] {
                node = target // draft-07: siblings of $ref are annotations only
            }
            for combinator in ["oneOf", "anyOf", "allOf"] {
                for branch in node[combinator] as? [Any] ?? [] { walk(branch, path, depth: depth + 1) }
            }
            if let properties = node["properties"] as? [String: Any] {
                result.append(SchemaObject(path: path, node: node, properties: properties))
                for (name, child) in properties { walk(child, path + [name], depth: depth + 1) }
            }
            if let items = node["items"] {
                var itemPath = path
                if itemPath.isEmpty { itemPath = ["[]"] } else { itemPath[itemPath.count - 1] += "[]" }
                walk(items, itemPath, depth: depth + 1)
            }
            if let additional = node["additionalProperties"] as? [String: Any] { walk(additional, path + ["*"], depth: depth + 1) }
            for (_, child) in node["patternProperties"] as? [String: Any] ?? [:] { walk(child, path + ["*"], depth: depth + 1) }
        }
        walk(schema, [], depth: 0)
        return result
    }

    /// `apps[].permissions.*` matches `[apps[], permissions, *]`; a `*` of the loader matches any key.
    static func place(_ place: String, matches path: [String]) -> Bool {
        let segments = place.isEmpty ? [] : place.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return segments.count == path.count && zip(segments, path).allSatisfy { $0 == "*" || $0 == $1 }
    }

    /// A JSON pointer (`/definitions/app`) into `document`.
    static func resolve(_ pointer: String, in document: Any) -> Any? {
        var node: Any? = document
        for token in pointer.split(separator: "/") {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = node as? [String: Any] { node = object[key] }
            else if let array = node as? [Any], let index = Int(key), array.indices.contains(index) { node = array[index] }
            else { return nil }
        }
        return node
    }

    static func isFalse(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return !flag }
        return false
    }

    // MARK: YAML as editors read it

    /// The config as JSON, its scalars typed by YAML 1.2's core schema as the YAML language server
    /// types them (`2026` a number, `1988-02-29` and `3.2.0` strings, quoted text always a string).
    static func json(fromYAML text: String) throws -> String {
        guard let node = try Yams.compose(yaml: text) else { return "null" }
        let data = try JSONSerialization.data(withJSONObject: value(node), options: [.fragmentsAllowed, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func value(_ node: Node) -> Any {
        switch node {
        case .scalar(let scalar): return scalar.style == .plain ? plain(scalar.string) : scalar.string
        case .mapping(let mapping):
            var object: [String: Any] = [:]
            for (key, item) in mapping { object[key.string ?? "\(key)"] = value(item) }
            return object
        case .sequence(let sequence): return sequence.map { value($0) }
        case .alias: return NSNull()
        }
    }

    static func plain(_ text: String) -> Any {
        switch text {
        case "", "~", "null", "Null", "NULL": return NSNull()
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: break
        }
        if text.wholeMatch(of: /[-+]?[0-9]+/) != nil, let integer = Int(text) { return integer }
        if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil, let number = Double(text) { return number }
        return text
    }
}
