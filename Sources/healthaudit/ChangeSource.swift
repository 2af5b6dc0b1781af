import Foundation
import Manifest
import Report

/// Where `check --changed-files FILE` and `--since REF` get the changed lines, and the
/// repository root their paths are relative to.
enum ChangeSource {
    /// `--changed-files`: paths relative to the repository holding the site (the folder with
    /// `.git`), or to the site folder when it is in none; `-` reads standard input.
    static func listed(in file: String, siteDirectory: String) throws -> (ChangedLines, root: String) {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            // The user names this file; still read without blocking on a FIFO and within the size limit.
            do { data = try LocalFileSystem().contents(of: Paths.absolute(file)) } catch let error as InputError {
                throw CommandFailure("\(file): error: changed-files list not readable: \(error.problems.first?.message ?? "")")
            }
        }
        do {
            return (try ChangedLines(listing: String(decoding: data, as: UTF8.self)), ProjectRoot.containing(siteDirectory))
        } catch let error as ChangedLines.FormatError {
            throw CommandFailure("\(file): error: \(error.description)")
        }
    }

    /// `--since REF`: `git diff REF` against the working tree, in the site's repository.
    static func since(_ revision: String, siteDirectory: String) throws -> (ChangedLines, root: String) {
        // A revision starting with `-` would be read as an option; git's own `--` ends the revisions.
        guard !revision.isEmpty, !revision.hasPrefix("-") else {
            throw CommandFailure("error: --since needs a git revision (a branch, tag or commit), not '\(VisibleText.escaped(revision))'")
        }
        let git = try Git.located(for: "--since \(revision)")
        let root = try git.run(["rev-parse", "--show-toplevel"], in: siteDirectory).trimmingCharacters(in: .newlines)
        // Fixed prefixes and no renames config, external diff, textconv or relative paths, whatever
        // the user's git config says, so the patch reads the same everywhere.
        let diff = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames", "--no-relative",
                    "--src-prefix=a/", "--dst-prefix=b/"]
        let names = try git.run(diff + ["--name-only", "-z", revision, "--"], in: siteDirectory)
        let patch = try git.run(diff + ["--unified=0", revision, "--"], in: siteDirectory)
        return (ChangedLines(gitNames: names, unifiedDiff: patch), root)
    }
}

/// git run directly (no shell) with its output captured; a failure is a `CommandFailure` quoting git.
struct Git {
    let executable: String
    /// What the user asked for, to name in errors (`--since main`).
    let purpose: String

    /// The first `git` on PATH.
    static func located(for purpose: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws -> Git {
        for folder in (path ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = String(folder) + "/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return Git(executable: candidate, purpose: purpose) }
        }
        throw CommandFailure("error: \(purpose) needs git, and there is no git on PATH")
    }

    func run(_ arguments: [String], in folder: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // Quoted paths only where git must (quotes, control characters); never the repository's
        // fsmonitor hook, which a checked-out config could point at any program.
        process.arguments = ["-c", "core.quotePath=false", "-c", "core.fsmonitor=false"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw CommandFailure("error: \(purpose): cannot run \(executable): \(error.localizedDescription)")
        }
        // stderr is drained beside stdout so a chatty git cannot fill its pipe and stall.
        let errorText = CapturedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorText.data = errors.fileHandleForReading.readDataToEndOfFile() }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errorText.data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            throw CommandFailure("error: \(purpose): git \(arguments.first ?? "") failed (exit \(process.terminationStatus)): "
                                 + VisibleText.escaped(message))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Written by one reader thread before `group.wait()` returns, read only after it.
    private final class CapturedData: @unchecked Sendable {
        var data = Data()
    }
}
