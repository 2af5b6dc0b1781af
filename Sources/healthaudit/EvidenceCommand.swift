import ArgumentParser
import Foundation
import Manifest
import Report

/// `healthaudit evidence`: one self-contained HTML file with an app's audit, the config and the
/// SHA-256 of every input, to archive or attach to a review. Same inputs, same bytes.
struct EvidenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evidence",
        abstract: "Write one app's audit as a self-contained HTML evidence file.",
        discussion: """
        The file holds the verdict, the six review answers with their evidence, every finding (suppressed \
        ones marked), the tool version, the config file's text (the other apps' entries left out) and the SHA-256 of each input file.

        Exit codes: 0 written; 2 usage or input error (unknown app, config or manifest errors, an output that \
        is one of the audit's inputs); 3 the output cannot be written.
        """
    )

    @Option(help: "The site folder holding healthaudit.yml and the apps (default: the folder of the nearest healthaudit.yml here or above, up to the repository root, else ./Site).")
    var site: String?

    /// Found as `check` and `build` find it, so the CI recipe needs no `--site`: the folder and the
    /// config's name in it (`healthaudit.yml` or `.healthaudit.yml`).
    private var located: (folder: String, name: String) {
        if let site {
            let folder = Paths.absolute(site)
            let name = SiteLocator.names.first { FileManager.default.fileExists(atPath: folder + "/" + $0) } ?? ConfigLoader.fileName
            return (folder, name)
        }
        return SiteLocator.nearestConfig(from: Paths.absolute(".")) ?? (Paths.absolute("Site"), ConfigLoader.fileName)
    }
    private var siteDirectory: String { located.folder }

    @Option(help: ArgumentHelp("The app to write evidence for.", valueName: "id"))
    var app: String

    @Option(help: ArgumentHelp("The HTML file to write ('-' for standard output).", valueName: "file"))
    var output: String

    func run() throws { try CommandFailure.exitOnFailure(write) }

    private func write() throws {
        let (siteDirectory, name) = located
        let configData = try read(siteDirectory + "/" + name, shown: name)
        let configText = String(decoding: configData, as: UTF8.self)
        let run = try AuditRunner.audit(siteDirectory: siteDirectory, apps: [app], configText: name == ConfigLoader.fileName ? nil : configText)
        guard let audit = run.audits.first else { return }
        var inputs = [InputDigest(path: name, sha256: SHA256.hex(configData))]
        for path in audit.manifest.inputFiles {
            inputs.append(InputDigest(path: path, sha256: SHA256.hex(try read(siteDirectory + "/" + path, shown: path))))
        }
        // Only this app's entry of the config: the others' settings are not this reviewer's to read.
        // Parsed from the bytes shown and digested, so the entries' lines are those of this text.
        let config = try ConfigLoader().parse(configText, file: name, siteDirectory: siteDirectory)
        let input = EvidenceInput(audit: audit, configPath: name,
                                  configText: ConfigExcerpt.scoped(configText, to: audit.manifest.id, in: config), inputs: inputs)
        var context = OutputContext(sitePrefix: Paths.relative(siteDirectory), siteDirectory: siteDirectory)
        // The evidence names the commit it was audited at (read from `.git`, no git process).
        context.source = ResultSource(siteDirectory: siteDirectory, urlTemplate: nil)
        let writer = OutputWriter(auditInputs: run.inputs, named: [(siteDirectory + "/" + name, "a file the audit reads")])
        try writer.write(EvidenceReport.render(input, context: context), to: output)
    }

    /// Read again to digest, through the same confinement as the audit: a file swapped for a
    /// symlink since the audit must not bring outside content into the evidence.
    private func read(_ path: String, shown: String) throws -> Data {
        let fileSystem = LocalFileSystem(confinedTo: [ProjectRoot.containing(siteDirectory)])
        do { return try fileSystem.contents(of: path) } catch let error as InputError {
            throw CommandFailure(lines: error.cited(in: shown).problems.map(\.description))
        }
    }
}
