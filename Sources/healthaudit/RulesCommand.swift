import ArgumentParser
import Checklist
import Foundation
import Manifest
import Report
import SiteBuild

/// `healthaudit rules`: the catalogue, one line per rule, or JSON for tools.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule: id, default severity, the review questions it answers, and its title.")

    enum Format: String, ExpressibleByArgument { case text, json }

    @Option(help: "text (default) or json.") var format: Format = .text

    func run() throws {
        let rules = RuleCatalog.all.map { $0.description }.sorted { $0.id < $1.id }
        switch format {
        case .text:
            let width = rules.map(\.id.count).max() ?? 0
            Console.output(rules.map { rule in
                let questions = rule.questions.isEmpty ? "—" : rule.questions.map { "Q\($0.rawValue)" }.joined(separator: ",")
                let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                return "\(id)  \(severity)  \(questions.padding(toLength: 5, withPad: " ", startingAt: 0))  \(rule.title)"
            })
        case .json:
            let list: [JSONValue] = rules.map { rule in
                .object([("id", .string(rule.id)), ("title", .string(rule.title)), ("severity", .string(rule.severity.rawValue)),
                         ("questions", .array(rule.questions.map { .int($0.rawValue) }))])
            }
            // A document, not a message: JSON's own escaping applies.
            FileHandle.standardOutput.write(Data(JSONValue.object([("tool", .string("healthaudit")), ("version", .string(ToolInfo.currentVersion)), ("rules", .array(list))]).serialized().utf8))
        }
    }
}

/// `healthaudit explain RULE`: why the rule exists and what triggers it, in the terminal.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one rule: its rationale, the questions it answers, and examples that do and do not trigger it.")

    @Argument(help: "The rule id (see `healthaudit rules`).") var rule: String

    func run() throws {
        guard let type = RuleCatalog.rule(id: rule) else {
            let ids = RuleCatalog.all.map { $0.description.id }
            let hint = Suggestion.closest(to: rule, in: ids).map { " Did you mean '\($0)'?" } ?? ""
            Console.error("error: unknown rule '\(rule)'.\(hint) `healthaudit rules` lists them all.")
            throw ExitCode(ExitStatus.inputError)
        }
        let description = type.description
        var text = "\(description.id) — \(description.title)\n"
        text += "default severity: \(description.severity.rawValue)\n"
        for question in description.questions { text += "answers Q\(question.rawValue): \(question.text)\n" }
        text += "\n" + PlainText.fromMarkdown(description.rationale) + "\n"
        if !description.references.isEmpty {
            text += "\nRests on:\n" + description.references.map { "  \($0.title) — \($0.url)\n" }.joined()
        }
        let triggering = description.triggering
        let aboutCode = RuleDescription.isAboutCode(triggering)
        for (heading, examples) in [("Triggers on", triggering), ("Does not trigger on", description.nonTriggering)] {
            for (index, example) in examples.enumerated() {
                text += "\n\(heading) (example \(index + 1)):\n"
                // The finding's line is flagged with `>` in the gutter, as compilers point at it.
                for file in example.shownFiles(aboutCode: aboutCode) {
                    text += "  // \(file.path)\n"
                    let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
                    for (number, line) in lines.enumerated() where !(number == lines.count - 1 && line.isEmpty) {
                        text += (file.markedLines.contains(number + 1) ? "> " : "  ") + line + "\n"
                    }
                }
                if !example.read.isEmpty || !example.share.isEmpty {
                    text += "  (requests read: \(example.read.joined(separator: ", ")); share: \(example.share.joined(separator: ", ")))\n"
                }
            }
        }
        Console.output(Array(text.components(separatedBy: "\n").dropLast()))
    }
}

/// `healthaudit templates export DIR`: the built-in templates as files, to customise with `--templates`.
struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "Work with the site templates compiled into the tool.",
        subcommands: [Export.self])

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the built-in templates into DIR (existing files are never overwritten).")

        @Argument(help: "The folder to write into (created if missing).") var directory: String

        func run() throws {
            let folder = Paths.absolute(directory)
            let files = TemplateSet.builtInFiles
            let existing = files.keys.filter { FileManager.default.fileExists(atPath: folder + "/" + $0) }.sorted()
            guard existing.isEmpty else {
                Console.error("\(directory): error: refusing to overwrite \(existing.joined(separator: ", "))")
                throw ExitCode(ExitStatus.inputError)
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for (name, data) in files.sorted(by: { $0.key < $1.key }) {
                    try data.write(to: URL(fileURLWithPath: folder + "/" + name), options: .withoutOverwriting)
                }
            } catch {
                Console.error("\(directory): error: cannot write the templates: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.outputError)
            }
            Console.output("\(Plural.count(files.count, "template file")) written to \(directory); build with --templates \(directory)")
        }
    }
}

/// `healthaudit init [PATH]`: a commented `healthaudit.yml` from what discovery finds, never over an existing one.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Write a healthaudit.yml for the apps found in PATH (default: the current folder).")

    @Argument(help: "The folder to look in and write healthaudit.yml to.") var path: String = "."

    func run() throws {
        let folder = Paths.absolute(path)
        let target = folder + "/" + ConfigLoader.fileName
        if let refusal = Self.refusal(in: folder) {
            Console.error("\(Paths.relative(refusal.path)): error: \(refusal.reason)")
            throw ExitCode(ExitStatus.inputError)
        }
        let apps = AppDiscovery.find(in: folder)
        guard !apps.isEmpty else {
            Console.error("\(path): error: no iOS app found (an .xcodeproj with an application target, a React Native / Expo, Flutter or Capacitor app)")
            throw ExitCode(ExitStatus.inputError)
        }
        let title = (folder as NSString).lastPathComponent
        // Audited once with the plain config, so the written one lists targets and requested types;
        // an app that does not load yet still gets its entry (`check` then says what is wrong).
        var findings: [String: AppDiscovery.Findings] = [:]
        let site = RealPath.of(folder) ?? folder
        func audit(_ some: [AppDiscovery.App]) -> Bool {
            guard let (state, _) = try? AuditRunner.loadAndCheck(siteDirectory: site, configText: AppDiscovery.config(for: some, title: title), discovered: true)
            else { return false }
            for audit in state.audits where audit.manifest.loadProblems.isEmpty {
                findings[audit.manifest.id] = audit.discoveryFindings
            }
            return true
        }
        // One app that does not load yet must not cost the others their details: then one by one.
        if !audit(apps) { for app in apps { _ = audit([app]) } }
        var text = AppDiscovery.config(for: apps, title: title, findings: findings)
        text += """
        # Next steps: `healthaudit check` audits these apps; `healthaudit build` publishes the site.
        # Per app you may add `requested: {read: [...], share: [...]}` for types the code asks for in
        # ways the audit cannot follow, and `ignore:` entries (rule, path, reason): see the reference above.

        """
        // O_EXCL: a config created meanwhile is not overwritten either.
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            Console.error("\(Paths.relative(target)): error: cannot write: \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.outputError)
        }
        defer { close(descriptor) }
        let data = Data(text.utf8)
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        Console.output("wrote \(Paths.relative(target)) with \(Plural.count(apps.count, "app")): " + apps.map(\.id).joined(separator: ", "))
    }

    /// Why `init` must not write `healthaudit.yml` into `folder`: a config is there under either
    /// name (a `.healthaudit.yml` would silently lose to the new file, which is read first), or
    /// anything else holds the name, a symbolic link pointing nowhere included (seen with `lstat`).
    static func refusal(in folder: String) -> (path: String, reason: String)? {
        for name in SiteLocator.names {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let isLink = info.st_mode & S_IFMT == S_IFLNK
            if isLink && !FileManager.default.fileExists(atPath: path) {
                return (path, "refusing to write the config: \(name) is a symbolic link to a file that does not exist; remove the link, or create the file it names")
            }
            if name == ConfigLoader.fileName { return (path, "refusing to overwrite an existing config") }
            return (path, "this folder already has a config, \(name); a \(ConfigLoader.fileName) written beside it would be read instead. "
                          + "Edit \(name), or remove it to start again")
        }
        return nil
    }
}
