import Foundation
import Manifest

/// File and stream output for the commands (the Report module itself never touches the disk).
/// A report replaces only its own file, atomically; it never overwrites one of the audit's inputs.
struct OutputWriter {
    /// Real paths of every file the audit read.
    var inputs: Set<String> = []

    /// Writes `text` to `path`, or to stdout for `-`. A regular file (or a new one) is replaced
    /// through a temporary file in the same folder and a rename, so a reader never sees half a
    /// report; a device, FIFO or symlink (`/dev/stdout`, a named pipe) is written in place.
    func write(_ text: String, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let absolute = Paths.absolute(path)
        if let real = RealPath.of(absolute), inputs.contains(real) {
            throw CommandFailure("\(path): error: refusing to write a report over a file the audit reads", status: ExitStatus.inputError)
        }
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

    static func standardError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    private struct WriteError: Error {
        var operation: String
        var code: Int32
    }

    private func replaceAtomically(_ data: Data, at path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try makeFolders(folder)
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

    private func makeFolders(_ folder: String) throws {
        var info = stat()
        if folder.isEmpty || stat(folder, &info) == 0 { return }
        try makeFolders((folder as NSString).deletingLastPathComponent)
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw WriteError(operation: "create the folder \(folder)", code: errno) }
    }
}
