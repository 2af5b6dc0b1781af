import Foundation
import TestSupport
import XCTest
import Yams

/// `action.yml`, the GitHub Action of the README's CI recipe. GitHub cannot be run here, so what
/// can be checked is: it parses as a composite action, its scripts are valid bash that receive the
/// inputs through the environment only (never spliced into the script text, so a value cannot
/// inject commands), and every option it passes to healthaudit is one the built CLI accepts.
final class ActionTests: XCTestCase {
    static let actionPath = Repository.root + "/action.yml"

    static func action() throws -> [String: Any] {
        let text = try String(contentsOfFile: actionPath, encoding: .utf8)
        return try XCTUnwrap(try Yams.load(yaml: text) as? [String: Any], "action.yml is a YAML mapping")
    }

    static func steps() throws -> [[String: Any]] {
        let runs = try XCTUnwrap(try action()["runs"] as? [String: Any])
        return try XCTUnwrap(runs["steps"] as? [[String: Any]])
    }

    static func scripts() throws -> [(name: String, script: String, env: [String: Any])] {
        try steps().compactMap { step in
            guard let script = step["run"] as? String else { return nil }
            return (step["name"] as? String ?? "?", script, step["env"] as? [String: Any] ?? [:])
        }
    }

    func testItIsACompositeActionOfNamedSteps() throws {
        let action = try Self.action()
        XCTAssertEqual(action["name"] as? String, "healthaudit")
        XCTAssertNotNil(action["description"] as? String)
        XCTAssertEqual((action["runs"] as? [String: Any])?["using"] as? String, "composite")
        let steps = try Self.steps()
        XCTAssertGreaterThan(steps.count, 5)
        for step in steps {
            let name = step["name"] as? String ?? "?"
            XCTAssertNotNil(step["name"] as? String, "every step is named: \(step)")
            XCTAssertTrue((step["run"] == nil) != (step["uses"] == nil), "\(name): either run or uses")
            if step["run"] != nil { XCTAssertEqual(step["shell"] as? String, "bash", "\(name): a composite run step names its shell") }
        }
    }

    /// No `${{ … }}` inside a script; inputs reach scripts as environment variables, each one the step declares.
    func testScriptsTakeInputsOnlyThroughTheEnvironment() throws {
        let scripts = try Self.scripts()
        XCTAssertFalse(scripts.isEmpty)
        for (name, script, env) in scripts {
            XCTAssertFalse(script.contains("${{"), "\(name): an expression spliced into the script")
            for match in script.matches(of: /\$\{?(INPUT_[A-Z_]+|STATUS|TOOL_DIR|REPORT|EVENT_NAME|PULL_REQUEST_BASE)\b/) {
                XCTAssertNotNil(env[String(match.1)], "\(name): $\(match.1) is not in the step's env")
            }
        }
        // Every input the action declares is used, and every input it uses is declared.
        let declared = Set(try XCTUnwrap(try Self.action()["inputs"] as? [String: Any]).keys)
        let text = try String(contentsOfFile: Self.actionPath, encoding: .utf8)
        let used = Set(text.matches(of: /\binputs\.([a-z][a-z-]*)/).map { String($0.1) })
        XCTAssertEqual(used, declared)
    }

    func testScriptsAreValidBash() throws {
        let folder = Repository.temporaryDirectory("healthaudit-action")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (index, (name, script, _)) in try Self.scripts().enumerated() {
            let file = folder + "/step-\(index).sh"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["bash", "-n", file]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "\(name): bash -n: \(message)")
        }
    }

    /// Each `healthaudit SUBCOMMAND …` in a script, and each array it expands (`"${common[@]}"`),
    /// passes only options `healthaudit SUBCOMMAND --help` lists.
    func testEveryOptionPassedToHealthauditIsOneTheCLIHas() throws {
        try HealthAuditBinary.requireBuilt()
        var accepted: [String: Set<String>] = [:]
        func options(of subcommand: String) throws -> Set<String> {
            if let known = accepted[subcommand] { return known }
            let run = try HealthAuditBinary.run((subcommand.isEmpty ? [] : [subcommand]) + ["--help"], in: Repository.root)
            XCTAssertEqual(run.status, 0, "healthaudit \(subcommand) --help: \(run.stderr)")
            let found = Set(run.stdout.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.0) })
            accepted[subcommand] = found
            return found
        }
        var checked: [String] = []
        for (name, script, _) in try Self.scripts() {
            let lines = script.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map(String.init)
            for line in lines {
                // healthaudit where a command starts: the line's start, after ; & | ( or $(, or as a quoted path.
                guard let call = line.firstMatch(of: /(?:^|[;&|(])\s*(?:"[^"\s]*\/)?healthaudit"?(?=\s|$)(.*)/) else { continue }
                let rest = String(call.1)
                let first = rest.split(separator: " ").first.map(String.init) ?? ""
                let subcommand = first.wholeMatch(of: /[a-z]+/) != nil ? first : ""
                let known = try options(of: subcommand)
                var passed = Self.options(in: rest)
                // The arrays the call expands, as the script fills them (`common+=(--config "$INPUT_CONFIG")`).
                for array in rest.matches(of: /\$\{([a-z_]+)\[@\]\}/).map({ String($0.1) }) {
                    let fills = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(array + "+=(") || $0.contains(" " + array + "+=(") }
                    XCTAssertFalse(fills.isEmpty, "\(name): the array \(array) is never filled")
                    for fill in fills { passed += Self.options(in: fill) }
                }
                for option in passed {
                    XCTAssertTrue(known.contains(option), "\(name): healthaudit \(subcommand) has no option \(option)")
                    checked.append(subcommand + " " + option)
                }
            }
        }
        // The checks above saw the calls that matter.
        for expected in ["check --format", "check --output", "check --fail-on", "check --since", "check --no-fail", "check --config", "check --app", "check --baseline", "check --cache-path", " --version"] {
            XCTAssertTrue(checked.contains(expected), "no \(expected) found in action.yml's scripts: \(checked)")
        }
    }

    /// Issue 33, case 22: the cache key hashed Package.swift, Sources and Templates, but not the
    /// dependency versions SwiftPM resolves (Package.resolved is not committed), so a dependency's
    /// new release reused the old binary. The step resolves first, in the build's scratch folder,
    /// and hashes the Package.resolved it writes. SwiftPM stands in as a stub here: the real one
    /// needs the network, and what is tested is the step's script.
    func testTheCacheKeyFollowsTheResolvedDependencyVersions() throws {
        let step = try XCTUnwrap(try Self.scripts().first { $0.name == "Identify the build" })
        let folder = Repository.temporaryDirectory("healthaudit-action-key")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let action = folder + "/action", bin = folder + "/bin", log = folder + "/swift.log"
        for (path, text) in ["Package.swift": "// swift-tools-version:6.0\n", "Sources/A/A.swift": "let a = 1\n", "Templates/page.mustache": "{{x}}\n",
                             ".." + "/bin/swift": Self.swiftStub] {
            let full = action + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(chmod(bin + "/swift", 0o755), 0)

        func key(resolving versions: String) throws -> String {
            let output = folder + "/github-output"
            try "".write(toFile: output, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["bash", "-c", step.script]
            process.environment = ProcessInfo.processInfo.environment.merging([
                "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "GITHUB_ACTION_PATH": action, "GITHUB_OUTPUT": output, "RUNNER_TEMP": folder + "/runner-temp",
                "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "STUB_RESOLVED": versions, "STUB_LOG": log,
            ]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            return String(try XCTUnwrap(lines.first { $0.hasPrefix("key=") }))
        }
        let first = try key(resolving: #"{"pins":[{"identity":"yams","state":{"version":"6.2.2"}}]}"#)
        XCTAssertEqual(try key(resolving: #"{"pins":[{"identity":"yams","state":{"version":"6.2.2"}}]}"#), first, "the same resolution, the same key")
        XCTAssertNotEqual(try key(resolving: #"{"pins":[{"identity":"yams","state":{"version":"6.3.0"}}]}"#), first, "a dependency update, a new key")
        XCTAssertTrue(first.hasPrefix("key=healthaudit-Linux-X64-"), first)
        // Resolved where the build step builds, so the build uses exactly that resolution.
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(calls.contains("package resolve --package-path \(action) --scratch-path \(folder)/runner-temp/healthaudit-build\n"), calls)
        let build = try XCTUnwrap(try Self.scripts().first { $0.name == "Build healthaudit" })
        XCTAssertTrue(build.script.contains("scratch=\"$RUNNER_TEMP/healthaudit-build\""))
    }

    /// `swift package resolve` writes `$STUB_RESOLVED` as the package's Package.resolved; `swift --version` prints a version.
    static let swiftStub = """
        #!/bin/sh
        echo "$*" >> "$STUB_LOG"
        if [ "$1" = package ] && [ "$2" = resolve ]; then
          while [ $# -gt 0 ]; do
            if [ "$1" = --package-path ]; then printf '%s' "$STUB_RESOLVED" > "$2/Package.resolved"; fi
            shift
          done
          exit 0
        fi
        echo "Swift version 6.0 (stub)"

        """

    /// `--name` tokens: after a space, a quote, `(` or `=`, as a script writes them.
    static func options(in text: String) -> [String] {
        text.matches(of: /(?:^|[\s("'=])(--[a-z][a-z0-9-]*)/).map { String($0.1) }
    }

    /// The README's quick start and the CI guide show workflows using this action, with inputs it declares.
    func testTheReadmeRecipeUsesTheAction() throws {
        let declared = Set(try XCTUnwrap(try Self.action()["inputs"] as? [String: Any]).keys)
        var blocks: [String] = []
        for document in ["README.md", "docs/ci.md"] {
            let text = try String(contentsOfFile: Repository.root + "/" + document, encoding: .utf8)
            let shown = text.matches(of: /```yaml\n([\s\S]*?)```/).map { String($0.1) }.filter { $0.contains("uses: healthaudit/healthaudit@") }
            XCTAssertFalse(shown.isEmpty, "\(document) shows a workflow using the action")
            blocks += shown
        }
        var seen = 0
        for block in blocks {
            let workflow = try XCTUnwrap(try Yams.load(yaml: block) as? [String: Any], block)
            let jobs = try XCTUnwrap(workflow["jobs"] as? [String: Any])
            for case let job as [String: Any] in jobs.values {
                for step in job["steps"] as? [[String: Any]] ?? [] where (step["uses"] as? String)?.hasPrefix("healthaudit/healthaudit@") == true {
                    seen += 1
                    let inputs = Set((step["with"] as? [String: Any] ?? [:]).keys)
                    XCTAssertEqual(inputs.subtracting(declared), [], "the README passes inputs the action does not declare")
                }
            }
        }
        XCTAssertGreaterThan(seen, 0)
    }
}
