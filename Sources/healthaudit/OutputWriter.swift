import Foundation
import Manifest

/// File and stream output for the commands (the Report module itself never touches the disk).
/// A report replaces only its own file, atomically; it never overwrites one of the run's inputs.
struct OutputWriter {
    /// Every file the run read — the audit's inputs, the config, a baseline, a changed-files
    /// list — as the file each path names (device and inode), with what it is to the run: a
    /// symlink, a hard link or another spelling of an input is that input.
    private var inputs: [FileIdentity: String] = [:]

    /// `auditInputs`: the files the audit read; `named`: the files the user named, with what each is
    /// (`the baseline`), said in the refusal.
    init(auditInputs: some Sequence<String> = [], named: [(path: String, role: String)] = []) {
        for path in auditInputs {
            if let identity = FileIdentity(of: Paths.absolute(path)) { inputs[identity] = "a file the audit reads" }
        }
        for (path, role) in named {
            if let identity = FileIdentity(of: Paths.absolute(path)) { inputs[identity] = role }
        }
    }

    /// Refuses, before anything is written, every output path that is one of the run's inputs
    /// (`check --baseline B --output B` would otherwise read B and then replace it).
    func refuseInputs(_ paths: [String]) throws {
        for path in paths where path != "-" { try refuseInput(path) }
    }

    private func refuseInput(_ path: String) throws {
        if let identity = FileIdentity(of: Paths.absolute(path)), let role = inputs[identity] {
            throw CommandFailure("\(path): error: refusing to write a report over \(role)", status: ExitStatus.inputError)
        }
    }

    /// Writes `text` to `path`, or to stdout for `-`. A regular file (or a new one) is replaced
    /// through a temporary file in the same folder and a rename, so a reader never sees half a
    /// report; a device, FIFO or symlink (`/dev/stdout`, a named pipe) is written in place.
    func write(_ text: String, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        try refuseInput(path)
        let absolute = Paths.absolute(path)
        do {
            var info = stat()
            if lstat(absolute, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                guard (info.st_mode & S_IFMT) != S_IFDIR else { throw WriteError(operation: "write the report", code: EISDIR) }
                try writeInPlace(Data(text.utf8), to: absolute)
            } else {
                try replaceAtomically(Data(text.utf8), at: absolute)
            }
        } catch let error as WriteError {
            throw CommandFailure("\(path): error: cannot \(error.operation): \(SystemError.text(error.code))", status: ExitStatus.outputError)
        }
    }

    private struct WriteError: Error {
        var operation: String
        var code: Int32
    }

    private func replaceAtomically(_ data: Data, at path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var created: [String] = []
        // A report that could not be written leaves no empty folder made for it.
        defer {
            if !FileManager.default.fileExists(atPath: path) {
                for made in created.reversed() {
                    if rmdir(made) != 0 { break }
                }
            }
        }
        try makeFolders(folder, created: &created)
        var template = Array((folder + "/." + (path as NSString).lastPathComponent + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(operation: "create a temporary file in \(folder)", code: errno) }
        let temporary = String(cString: template)
        do {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor)
            // mkstemp makes the file 0600; a report is as readable as any file the user writes.
            let mask = umask(0); umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
            guard rename(temporary, path) == 0 else { throw WriteError(operation: "replace the file", code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private func writeInPlace(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError(operation: "open the file", code: errno) }
        defer { close(descriptor) }
        var info = stat()
        // Through a symlink to a regular file: truncate it like any report; devices and FIFOs cannot be.
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { ftruncate(descriptor, 0) }
        try writeAll(data, to: descriptor)
    }

    private func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(operation: "write the file", code: errno)
                }
                offset += written
            }
        }
    }

    /// Creates `folder` and its missing parents, appending each one it made to `created`, outermost first.
    private func makeFolders(_ folder: String, created: inout [String]) throws {
        var info = stat()
        if folder.isEmpty || stat(folder, &info) == 0 { return }
        try makeFolders((folder as NSString).deletingLastPathComponent, created: &created)
        if mkdir(folder, 0o755) == 0 {
            created.append(folder)
        } else if errno != EEXIST {
            throw WriteError(operation: "create the folder \(folder)", code: errno)
        }
    }
}

/// A file as the kernel knows it: two paths, links or spellings name the same file exactly when these agree.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// nil when nothing is at `path` (following symbolic links).
    init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
