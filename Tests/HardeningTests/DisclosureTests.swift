import Foundation
import Checklist
import Manifest
import Report
import SiteBuild
import XCTest
import TestSupport

/// What a hostile repository can make the audit read and publish (issue 33, items 1, 2, 6 and 20):
/// git's own data, files outside the repository through a committed templates symlink or a
/// symlinked folder in the previous output, and an outside file named by a build setting.
final class DisclosureTests: XCTestCase {
    /// The job's token as `actions/checkout` leaves it in `.git/config`: valid `.xcconfig` syntax.
    static let token = "eC1hY2Nlc3MtdG9rZW46U0VDUkVU"
    static let gitConfig = """
        [core]
        \trepositoryformatversion = 0
        [remote "origin"]
        \turl = https://github.com/acme/leak
        [http "https://github.com/"]
        \textraheader = AUTHORIZATION: basic \(token)

        """
    static let day = FixedClock(DayDate(year: 2026, month: 4, day: 1))

    var site: TestSite!

    override func tearDown() { site?.remove() }

    /// A repository (the site folder, with its own `.git`) holding one Xcode app, Leak, whose
    /// Release configuration is based on the file reference `base` and asks for the `$(extraheader)`
    /// setting in its generated Info.plist.
    func leakRepository(base: String?, settings: String = "", files: [String: String] = [:]) throws -> TestSite {
        var all = [
            ".git/config": Self.gitConfig,
            ".git/HEAD": "ref: refs/heads/main\n",
            "healthaudit.yml": "title: Leak\napps:\n  - id: leak\n    name: Leak\n    root: .\n    project: Leak.xcodeproj\n",
            "Leak.xcodeproj/project.pbxproj": Self.project(base: base, settings: settings),
            "Leak/App.swift": "import HealthKit\n\nlet store = HKHealthStore()\n",
        ]
        all.merge(files) { $1 }
        return try TestSite(files: all, prefix: "healthaudit-disclosure")
    }

    /// An app target generating its Info.plist from settings; `base` is its base configuration's path.
    static func project(base: String?, settings: String = "") -> String {
        let reference = base.map { "A0000000000000000000001 = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \($0); sourceTree = \"<group>\"; };" } ?? ""
        let baseSetting = base == nil ? "" : "baseConfigurationReference = A0000000000000000000001; "
        return """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tobjectVersion = 56;
            \tobjects = {
            \t\t\(reference)
            \t\tA0000000000000000000002 = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = App.swift; sourceTree = "<group>"; };
            \t\tA0000000000000000000003 = {isa = PBXBuildFile; fileRef = A0000000000000000000002; };
            \t\tA0000000000000000000010 = {isa = PBXGroup; children = (\(base == nil ? "" : "A0000000000000000000001, ")A0000000000000000000011, ); sourceTree = "<group>"; };
            \t\tA0000000000000000000011 = {isa = PBXGroup; children = (A0000000000000000000002, ); path = Leak; sourceTree = "<group>"; };
            \t\tA0000000000000000000020 = {isa = PBXSourcesBuildPhase; files = (A0000000000000000000003, ); };
            \t\tA0000000000000000000030 = {isa = PBXNativeTarget; buildConfigurationList = A0000000000000000000040; buildPhases = (A0000000000000000000020, ); name = Leak; productName = Leak; productType = "com.apple.product-type.application"; };
            \t\tA0000000000000000000040 = {isa = XCConfigurationList; buildConfigurations = (A0000000000000000000041, ); defaultConfigurationName = Release; };
            \t\tA0000000000000000000041 = {isa = XCBuildConfiguration; \(baseSetting)buildSettings = {GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_NSHealthShareUsageDescription = "$(extraheader)"; PRODUCT_NAME = Leak; \(settings)}; name = Release; };
            \t\tA0000000000000000000050 = {isa = XCConfigurationList; buildConfigurations = (A0000000000000000000051, ); defaultConfigurationName = Release; };
            \t\tA0000000000000000000051 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
            \t\tA0000000000000000000060 = {isa = PBXProject; buildConfigurationList = A0000000000000000000050; mainGroup = A0000000000000000000010; targets = (A0000000000000000000030, ); };
            \t};
            \trootObject = A0000000000000000000060;
            }

            """
    }

    func symlink(_ path: String, to target: String) throws {
        let full = site.site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
    }

    /// Every output of the site, produced in-process: the discovery facts (what `--verbose` lists)
    /// and every report format from a check with the simulation (the JSON a fleet uploads), then
    /// (with `sites`) the site built from the sources and the one assembled from that JSON with
    /// `build --results`.
    func everyOutput(sites: Bool = true) throws -> [String: String] {
        var outputs: [String: String] = [:]
        var options = site.options
        options.outputDirectory = site.root + "/from-sources"
        let state = try Pipeline.auditAndSimulate.run(options)
        let audits = state.audits
        outputs["discovery"] = audits.flatMap(\.manifest.discovery).map { "\($0.text) (\($0.origin))" }.joined(separator: "\n")
        outputs["build settings"] = audits.flatMap { $0.manifest.config.buildSettings.map { "\($0.key) = \($0.value)" } }.joined(separator: "\n")
        var context = OutputContext(sitePrefix: "Site", siteDirectory: site.site, verbose: true)
        context.summaries = state.summaries
        for format in [ReportFormat.text, .sarif, .junit, .json, .markdown, .github, .gitlab] {
            outputs["check --format \(format)"] = format.render(audits, context: context)
        }
        let results = site.root + "/results"
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        try outputs["check --format json"]!.write(toFile: results + "/leak.json", atomically: true, encoding: .utf8)
        guard sites else { return outputs }

        options.clock = Self.day
        try Pipeline.site.run(options)
        var fromResults = BuildOptions(siteDirectory: results, outputDirectory: site.root + "/from-results", templatesDirectory: Repository.templates,
                                       clock: Self.day, log: SilentLog())
        fromResults.resultsDirectory = results
        try Pipeline.results.run(fromResults)
        for folder in ["from-sources", "from-results"] {
            let pages = try site.snapshot(site.root + "/" + folder)
            XCTAssertTrue(pages.keys.contains("apps/leak/index.html"), "\(folder) has the app's page")
            for (path, data) in pages { outputs["\(folder)/\(path)"] = String(decoding: data, as: UTF8.self) }
        }
        return outputs
    }

    func assertNoToken(_ outputs: [String: String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(outputs.count, 9, file: file, line: line)
        for (name, text) in outputs {
            XCTAssertFalse(text.contains(Self.token) || text.contains("AUTHORIZATION"), "the token reached \(name)", file: file, line: line)
        }
    }

    func discoveryNotes() throws -> [String] {
        let audit = try XCTUnwrap(try site.audit().audits.first)
        return audit.manifest.discovery.filter(\.isNote).map(\.text)
    }

    static let undefined = "INFOPLIST_KEY_NSHealthShareUsageDescription uses $(extraheader), which no level of the project defines"

    // MARK: 1. git's own data

    /// The reported attack: the project's file reference `path = .git/config` as its base configuration.
    func testAGitConfigNamedAsTheBaseConfigurationIsNeverRead() throws {
        site = try leakRepository(base: ".git/config")
        XCTAssertEqual(try discoveryNotes(), [".git/config lies in a .git folder (git's own data, which may hold credentials); not read", Self.undefined])
        let outputs = try everyOutput()
        assertNoToken(outputs)
        XCTAssertTrue(outputs["check --format json"]!.contains("NSHealthShareUsageDescription = $(extraheader)"), "the setting stays as written")
    }

    /// The same file reached through a name that passes every textual check: an `.xcconfig` symlink
    /// into `.git`, an `#include` of one, and a `.git` that is itself a symlink to a folder of another name.
    func testGitDataReachedThroughASymlinkOrAnIncludeIsNeverRead() throws {
        let cases: [(name: String, files: [String: String], links: [String: String], note: String)] = [
            ("an .xcconfig symlink into .git", [:], ["Shared.xcconfig": ".git/config"],
             "Shared.xcconfig lies in a .git folder (git's own data, which may hold credentials); not read"),
            ("an #include of .git/config", ["Shared.xcconfig": "#include \".git/config\"\n"], [:],
             "Shared.xcconfig:1: #include \".git/config\" lies in a .git folder (git's own data, which may hold credentials); not read"),
            ("an #include of an .xcconfig symlink into .git", ["Shared.xcconfig": "#include \"Linked.xcconfig\"\n"], ["Linked.xcconfig": ".git/config"],
             "Shared.xcconfig:1: #include \"Linked.xcconfig\" lies in a .git folder (git's own data, which may hold credentials); not read"),
        ]
        for (name, files, links, note) in cases {
            site = try leakRepository(base: "Shared.xcconfig", files: files)
            for (link, target) in links { try symlink(link, to: target) }
            XCTAssertEqual(try discoveryNotes(), [note, Self.undefined], name)
            // Never read, so in no setting: the reports show that; the sites are built from the same audit.
            assertNoToken(try everyOutput(sites: false))
            site.remove()
        }

        // Git data kept in a folder of another name, `.git` a symlink to it: its real path is refused.
        site = try leakRepository(base: "Shared.xcconfig")
        try FileManager.default.moveItem(atPath: site.site + "/.git", toPath: site.site + "/gitdata")
        try symlink(".git", to: "gitdata")
        try symlink("Shared.xcconfig", to: "gitdata/config")
        XCTAssertEqual(try discoveryNotes(), ["Shared.xcconfig lies in a .git folder (git's own data, which may hold credentials); not read", Self.undefined])
        assertNoToken(try everyOutput(sites: false))
    }

    /// The confinement itself, for every reader: any `.git` name, and git's data however reached.
    func testTheConfinedFileSystemRefusesEveryReadOfGitData() throws {
        site = try leakRepository(base: nil)
        try FileManager.default.createDirectory(atPath: site.site + "/gitdata", withIntermediateDirectories: true)
        try Self.gitConfig.write(toFile: site.site + "/gitdata/config", atomically: true, encoding: .utf8)
        try symlink("Sub/.git", to: "../gitdata")
        try symlink("config.plist", to: ".git/config")
        let fileSystem = LocalFileSystem(confinedTo: [site.site])
        for path in [".git/config", "Leak/../.git/config", "config.plist", "Sub/.git/config"] {
            XCTAssertThrowsError(try fileSystem.contents(of: site.site + "/" + path), path) { error in
                XCTAssertEqual((error as? InputError)?.problems.map(\.description),
                               ["\(site.site)/\(path): error: lies in a .git folder (git's own data, which may hold credentials); not read"], path)
            }
        }
        XCTAssertThrowsError(try fileSystem.files(under: site.site + "/.git"))
        XCTAssertThrowsError(try fileSystem.entries(in: site.site + "/.git"))
        // A worktree's `.git` file names its git folder: that folder is git's data too, whatever its name.
        try FileManager.default.removeItem(atPath: site.site + "/.git")
        try "gitdir: gitdata\n".write(toFile: site.site + "/.git", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try LocalFileSystem(confinedTo: [site.site]).contents(of: site.site + "/gitdata/config"))
        XCTAssertEqual(try LocalFileSystem(confinedTo: [site.site]).contents(of: site.site + "/Leak/App.swift"), Data("import HealthKit\n\nlet store = HKHealthStore()\n".utf8),
                       "the rest is read")

        // Names the file systems of macOS and Windows take for `.git`, as git itself checks them.
        for name in [".git", ".GIT", ".Git", ".g\u{200C}it", ".git.", ".git ", "git~1", "GIT~1"] {
            XCTAssertTrue(GitMetadata.isGitName(name), name)
        }
        for name in [".github", ".gitignore", "git", ".gi", "my.git", ".gitmodules"] {
            XCTAssertFalse(GitMetadata.isGitName(name), name)
        }
    }

    /// Other workspace files in `KEY=VALUE` form become build settings only if the project names
    /// them as its `.xcconfig`: a `.env` as base configuration or `#include` is not read.
    func testADotEnvFileIsNotReadAsBuildSettings() throws {
        let env = "extraheader=AUTHORIZATION: basic \(Self.token)\n"
        site = try leakRepository(base: ".env", files: [".env": env])
        XCTAssertEqual(try discoveryNotes(), [".env is not an .xcconfig file; its lines are not read as build settings", Self.undefined])
        assertNoToken(try everyOutput())
        site.remove()

        site = try leakRepository(base: "Shared.xcconfig", files: [".env": env, "Shared.xcconfig": "#include \".env\"\nSDKROOT = iphoneos\n"])
        XCTAssertEqual(try discoveryNotes(), ["Shared.xcconfig:1: #include \".env\" is not an .xcconfig file; its lines are not read as build settings", Self.undefined])
        assertNoToken(try everyOutput(sites: false))
    }

    /// The CLI end to end, as CI runs it on a pull request: no config, the app discovered, every
    /// format and `--verbose`, then a site built from the sources and one from the JSON.
    func testNoCommandPrintsOrPublishesTheToken() throws {
        try HealthAuditBinary.requireBuilt()
        site = try leakRepository(base: ".git/config")
        try FileManager.default.removeItem(atPath: site.site + "/healthaudit.yml")
        let reports = site.root + "/reports"
        let check = try HealthAuditBinary.run(["check", "--verbose", "--format", "json", "--output", reports + "/leak.json",
                                               "--format", "sarif", "--output", reports + "/leak.sarif", "--format", "text", "--format", "github"], in: site.site)
        XCTAssertEqual(check.status, 1, check.stderr)
        XCTAssertTrue(check.stdout.contains("Leak.xcodeproj/project.pbxproj:6: note: .git/config lies in a .git folder (git's own data, which may hold credentials); not read (target Leak (Release))"), check.stdout)
        XCTAssertTrue(check.stdout.contains("Leak.xcodeproj/project.pbxproj:14: warning: $(extraheader) in NSHealthShareUsageDescription is not defined in build_settings [unresolved-build-variable]"), check.stdout)
        try "title: Leak\napps:\n  - id: leak\n    name: Leak\n    root: .\n    project: Leak.xcodeproj\n".write(toFile: site.site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let build = try HealthAuditBinary.run(["build", "--output", site.root + "/public"], in: site.site)
        XCTAssertEqual(build.status, 0, build.stderr)
        try FileManager.default.createDirectory(atPath: site.root + "/results", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: reports + "/leak.json", toPath: site.root + "/results/leak.json")
        let assembled = try HealthAuditBinary.run(["build", "--results", "results", "--output", "assembled"], in: site.root)
        XCTAssertEqual(assembled.status, 0, assembled.stderr)
        var outputs: [String: String] = [:]
        for (name, run) in [("check", check), ("build", build), ("build --results", assembled)] { outputs[name] = run.stdout + run.stderr }
        for folder in ["reports", "public", "assembled"] {
            for (path, data) in try site.snapshot(site.root + "/" + folder) { outputs[folder + "/" + path] = String(decoding: data, as: UTF8.self) }
        }
        XCTAssertNotNil(outputs["assembled/apps/leak/index.html"])
        assertNoToken(outputs)
    }

    /// A small site of one app, Pace, and two content pages.
    func inlineSite(prefix: String) throws -> TestSite {
        var files = InlineApp.files(id: "pace", name: "Pace")
        files["healthaudit.yml"] = "title: Pace\napps:\n" + InlineApp.config(id: "pace", name: "Pace") + "\n"
        files["content/about.md"] = "# About\n\nHow Pace is audited.\n"
        files["content/privacy.md"] = "# Privacy\n\nWhat Pace keeps.\n"
        return try TestSite(files: files, prefix: prefix)
    }

    static let plist = "apps/pace/Pace/Info.plist"

    // MARK: 2. The templates folder

    static let secret = "SECRET-9c41-outside-the-repository"

    /// A folder outside the repository holding a template asset and a plist, both with the secret.
    func outsideFolder() throws -> String {
        let outside = site.root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "body::after { content: \"\(Self.secret)\" }\n".write(toFile: outside + "/style.css", atomically: true, encoding: .utf8)
        try InlineApp.infoPlist(["NSHealthShareUsageDescription": Self.secret, "NSHealthUpdateUsageDescription": Self.secret])
            .write(toFile: outside + "/secret.plist", atomically: true, encoding: .utf8)
        return outside
    }

    /// A committed `Site/templates -> /anywhere` is part of the repository, so it must lie inside it:
    /// an input error, and neither the templates nor anything else behind it is read.
    func testACommittedTemplatesSymlinkLeavingTheRepositoryIsRefused() throws {
        site = try inlineSite(prefix: "healthaudit-templates")
        let outside = try outsideFolder()
        try symlink("templates", to: outside)
        try FileManager.default.removeItem(atPath: site.site + "/" + Self.plist)
        try symlink(Self.plist, to: outside + "/secret.plist")
        var options = site.options
        options.templatesDirectory = site.site + "/templates"
        options.templatesFoundInSite = true
        let errors = inputErrors { try Pipeline.site.run(options) }
        assertErrors(errors, [
            "templates: error: the site's templates folder leads outside the repository (through a symbolic link); not read — give a folder you trust with --templates",
            Self.plist + ": error: leads outside the project (through a symbolic link or an absolute path); not read",
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output))
    }

    /// A folder the user gives with `--templates` is trusted for templates alone: it is read as
    /// templates, and an Info.plist symlinked into it is still outside the project.
    func testAGivenTemplatesFolderConfinesTemplateReadsOnly() throws {
        site = try inlineSite(prefix: "healthaudit-templates")
        let outside = try outsideFolder()
        let plist = try String(contentsOfFile: site.site + "/" + Self.plist, encoding: .utf8)
        try FileManager.default.removeItem(atPath: site.site + "/" + Self.plist)
        try symlink(Self.plist, to: outside + "/secret.plist")
        var options = site.options
        options.templatesDirectory = outside
        let errors = inputErrors { try Pipeline.site.run(options) }
        assertErrors(errors, [Self.plist + ": error: leads outside the project (through a symbolic link or an absolute path); not read"])

        try FileManager.default.removeItem(atPath: site.site + "/" + Self.plist)
        try site.write(Self.plist, plist)
        try Pipeline.site.run(options)
        XCTAssertTrue(try site.read("style.css").contains(Self.secret), "the given folder's own files are its templates")
    }

    /// The command line decides which folder is the site's own: `build` in a site whose
    /// `templates` is a committed symlink out of the repository fails with exit 2, and says so.
    func testBuildRefusesACommittedTemplatesSymlink() throws {
        try HealthAuditBinary.requireBuilt()
        site = try inlineSite(prefix: "healthaudit-templates")
        try symlink("templates", to: try outsideFolder())
        let run = try site.runCLI(["build", "--site", "Site"])
        XCTAssertEqual(run.status, 2, run.output)
        XCTAssertTrue(run.output.contains("Site/templates: error: [load] the site's templates folder leads outside the repository (through a symbolic link); not read — give a folder you trust with --templates"), run.output)
        XCTAssertFalse(run.output.contains(Self.secret))
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output))
    }

    // MARK: 6. The previous output

    /// `public/pages -> /outside` passes an `lstat` of each page, so the last site's files seemed
    /// reusable and were hard-linked into the new one. A page is reused only if it is reached
    /// through the output's own folders; otherwise the site is rendered again.
    func testASymlinkedFolderInThePreviousOutputBringsNoOutsideFileIn() throws {
        site = try inlineSite(prefix: "healthaudit-output")
        try site.build()
        let first = try site.snapshot()
        let pages = first.keys.filter { $0.hasPrefix("pages/") }.sorted()
        XCTAssertFalse(pages.isEmpty)
        let outside = site.root + "/outside"
        for change in ["nothing", "an app's Info.plist"] {
            // The attacker's folder: files of the pages' names, each holding the secret.
            try? FileManager.default.removeItem(atPath: outside)
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            for page in pages { try Self.secret.write(toFile: outside + "/" + page.dropFirst("pages/".count), atomically: true, encoding: .utf8) }
            try FileManager.default.removeItem(atPath: site.output + "/pages")
            try FileManager.default.createSymbolicLink(atPath: site.output + "/pages", withDestinationPath: outside)
            if change != "nothing" {
                try site.edit(Self.plist) { $0.replacingOccurrences(of: "<dict>", with: "<dict>\n\t<key>Edited</key><string>yes</string>") }
            }
            try site.build()
            var info = stat()
            XCTAssertEqual(lstat(site.output + "/pages", &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFDIR, "after \(change): the pages folder is the site's own again")
            let rebuilt = try site.snapshot()
            for page in pages {
                XCTAssertEqual(rebuilt[page], first[page], "after \(change): \(page) is rendered, not taken from outside")
                XCTAssertEqual(lstat(outside + "/" + page.dropFirst("pages/".count), &info), 0)
                XCTAssertEqual(info.st_nlink, 1, "after \(change): \(page) outside was not hard-linked into the site")
            }
            XCTAssertFalse(rebuilt.values.contains { String(decoding: $0, as: UTF8.self).contains(Self.secret) }, "after \(change)")
        }
    }

    // MARK: 20. Paths a build setting names outside the repository

    /// An existing file outside the repository is not "missing": it lies outside, and is not read.
    /// The message is the same whether it exists or not, so it tells nothing about the machine.
    func testAnEntitlementsPathOutsideTheRepositoryIsSaidToBeOutside() throws {
        site = try leakRepository(base: nil)
        let outside = try outsideFolder()
        try InlineApp.entitlements.write(toFile: site.site + "/Leak/Leak.entitlements", atomically: true, encoding: .utf8)
        let line = "Leak.xcodeproj/project.pbxproj:14: error: "
        let cases: [(setting: String, message: String)] = [
            ("CODE_SIGN_ENTITLEMENTS = /etc/hostname;", "CODE_SIGN_ENTITLEMENTS of Leak: '/etc/hostname' lies outside the repository; not read"),
            ("CODE_SIGN_ENTITLEMENTS = \"\(outside)/secret.plist\";", "CODE_SIGN_ENTITLEMENTS of Leak: '\(outside)/secret.plist' lies outside the repository; not read"),
            ("CODE_SIGN_ENTITLEMENTS = \"\(outside)/missing.plist\";", "CODE_SIGN_ENTITLEMENTS of Leak: '\(outside)/missing.plist' lies outside the repository; not read"),
            ("CODE_SIGN_ENTITLEMENTS = ../outside/secret.plist;", "CODE_SIGN_ENTITLEMENTS of Leak: '../outside/secret.plist' lies outside the repository; not read"),
            ("CODE_SIGN_ENTITLEMENTS = \"$(SRCROOT)/../outside/secret.plist\";", "CODE_SIGN_ENTITLEMENTS of Leak: '$(SRCROOT)/../outside/secret.plist' lies outside the repository; not read"),
            ("CODE_SIGN_ENTITLEMENTS = \"\(site.site)/Leak/Leak.entitlements\";",
             "CODE_SIGN_ENTITLEMENTS of Leak: '\(site.site)/Leak/Leak.entitlements' is an absolute path; write it relative to $(SRCROOT), as only files in the app folder are read"),
            ("CODE_SIGN_ENTITLEMENTS = Leak/Missing.entitlements;", "CODE_SIGN_ENTITLEMENTS of Leak: 'Leak/Missing.entitlements' does not exist"),
            ("INFOPLIST_FILE = \"\(outside)/secret.plist\";", "INFOPLIST_FILE '\(outside)/secret.plist' of Leak lies outside the repository; not read"),
        ]
        for (setting, message) in cases {
            try site.write("Leak.xcodeproj/project.pbxproj", Self.project(base: nil, settings: setting))
            let errors = inputErrors { try site.audit() }
            assertErrors(errors, [line + message])
        }
        try site.write("Leak.xcodeproj/project.pbxproj", Self.project(base: nil, settings: "CODE_SIGN_ENTITLEMENTS = Leak/Leak.entitlements;"))
        XCTAssertEqual(try site.audit().audits.first?.manifest.main.entitlements?.path, "Leak/Leak.entitlements", "a path inside is read")
    }
}
