import Foundation

/// One question a run asked of the file system (`RecordingFileSystem`), which a later run can ask again.
public enum FileQuestion: Hashable, Sendable {
    case read(String)
    case exists(String)
    case folder(String)
    case entries(String)
    case list(String, skipping: [String])

    /// The record's line for it, before the answer: `read <path>`, `exists <path>`, ….
    public var key: String {
        switch self {
        case .read(let path): "read " + path
        case .exists(let path): "exists " + path
        case .folder(let path): "folder " + path
        case .entries(let path): "entries " + path
        case .list(let path, let folders): "list " + path + " -" + folders.joined(separator: ",")
        }
    }

    var path: String {
        switch self {
        case .read(let path), .exists(let path), .folder(let path), .entries(let path), .list(let path, _): path
        }
    }
}

/// A file as `stat` saw it: the same size, times, inode and device mean the same bytes, as git
/// and make assume. The change time cannot be set back by a user (`touch` sets only the others).
public struct FileSignature: Hashable, Sendable {
    var size: Int64
    var modified: Int64
    var changed: Int64
    var inode: UInt64
    var device: UInt64

    /// The file at `path` (symlinks followed, as a read follows them); nil when it is not a regular file.
    static func of(_ path: String) -> FileSignature? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        #if os(Linux)
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #else
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return FileSignature(size: Int64(info.st_size), modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
                             changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec),
                             inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }
}

/// A question with the answer a run got, and for a file read, its signature then.
public struct TracedQuestion: Hashable, Sendable {
    public var question: FileQuestion
    public var answer: String
    public var signature: FileSignature?
}

/// Every question a run asked, to ask again: a run finding the same answers has the same inputs.
/// A file whose signature is unchanged is taken as unchanged without reading it, unless it changed
/// close to when that run started (within `recentChange`): a write in the same clock tick as the
/// read may leave the signature as it was (git's "racily clean" entries).
public struct FileTrace: Codable, Sendable, Equatable {
    /// When the run that made it started reading, in nanoseconds since 1970.
    public var started: Int64
    public var questions: [TracedQuestion]

    /// Coarser than any file system's time stamps (FAT keeps two seconds).
    static let recentChange: Int64 = 3_000_000_000

    public init(started: Int64, questions: [TracedQuestion]) {
        self.started = started
        self.questions = questions
    }

    private enum CodingKeys: String, CodingKey { case started, lines }

    /// One line per question, fields apart by tabs (`TraceLine`): thousands of questions decode
    /// as one string, not as thousands of JSON objects.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(started, forKey: .started)
        try container.encode(questions.map(TraceLine.text).joined(separator: "\n"), forKey: .lines)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        started = try container.decode(Int64.self, forKey: .started)
        let lines = try container.decode(String.self, forKey: .lines)
        questions = try lines.isEmpty ? [] : lines.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let question = TraceLine.question(line) else {
                throw DecodingError.dataCorruptedError(forKey: .lines, in: container, debugDescription: "not a traced question")
            }
            return question
        }
    }

    /// Now, as file times are kept.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Asks every question again through `recorder`, whose record then holds today's answers (the
    /// files found unchanged with the digests they had).
    /// Only questions about paths spelled inside `roots` are asked (the trace is read from disk and
    /// is not trusted to choose what is read); false when one is not, and the trace is of no use.
    public func replay(into recorder: RecordingFileSystem, inside roots: [String]) -> Bool {
        guard questions.allSatisfy({ question in
            let path = question.question.path
            return !path.split(separator: "/").contains("..") && roots.contains { RealPath.isInside(path, $0) }
        }) else { return false }
        var reads: [String] = []
        for traced in questions {
            switch traced.question {
            case .read(let path):
                if let signature = traced.signature, signature.changed < started - Self.recentChange, FileSignature.of(path) == signature {
                    recorder.noteUnchanged(path, digest: traced.answer, signature: signature)
                } else {
                    reads.append(path)
                }
            case .exists(let path): _ = recorder.fileExists(path)
            case .folder(let path): _ = recorder.isDirectory(path)
            case .entries(let path): _ = try? recorder.entries(in: path)
            case .list(let path, let folders): _ = try? recorder.files(under: path, skipping: Set(folders))
            }
        }
        _ = recorder.contents(ofAll: reads)
        return true
    }
}

/// A traced question as one line: kind, path, (skipped folders,) answer and signature, apart by
/// tabs; a backslash, tab, line feed or carriage return inside a field is escaped (a file name may
/// hold any of them, and a CR before the LF ending a line would make one character of the two).
enum TraceLine {
    static func text(_ traced: TracedQuestion) -> String {
        var fields: [String]
        switch traced.question {
        case .read(let path): fields = ["read", path]
        case .exists(let path): fields = ["exists", path]
        case .folder(let path): fields = ["folder", path]
        case .entries(let path): fields = ["entries", path]
        case .list(let path, let folders): fields = ["list", path, folders.joined(separator: "/")]
        }
        fields.append(traced.answer)
        fields.append(traced.signature.map { "\($0.size),\($0.modified),\($0.changed),\($0.inode),\($0.device)" } ?? "")
        return fields.map(escape).joined(separator: "\t")
    }

    static func question(_ line: Substring) -> TracedQuestion? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(unescape)
        guard let kind = fields.first, fields.count == (kind == "list" ? 5 : 4) else { return nil }
        let path = fields[1]
        let question: FileQuestion
        switch kind {
        case "read": question = .read(path)
        case "exists": question = .exists(path)
        case "folder": question = .folder(path)
        case "entries": question = .entries(path)
        case "list": question = .list(path, skipping: fields[2].isEmpty ? [] : fields[2].split(separator: "/").map(String.init))
        default: return nil
        }
        let numbers = fields[fields.count - 1].split(separator: ",")
        var signature: FileSignature?
        if !numbers.isEmpty {
            guard numbers.count == 5, let size = Int64(numbers[0]), let modified = Int64(numbers[1]), let changed = Int64(numbers[2]),
                  let inode = UInt64(numbers[3]), let device = UInt64(numbers[4]) else { return nil }
            signature = FileSignature(size: size, modified: modified, changed: changed, inode: inode, device: device)
        }
        return TracedQuestion(question: question, answer: fields[fields.count - 2], signature: signature)
    }

    /// Over scalars, not characters: a combining mark after a backslash must not hide it.
    static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else { return field }
        var scalars = String.UnicodeScalarView()
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\\": scalars.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": scalars.append(contentsOf: "\\t".unicodeScalars)
            case "\n": scalars.append(contentsOf: "\\n".unicodeScalars)
            case "\r": scalars.append(contentsOf: "\\r".unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    static func unescape(_ field: Substring) -> String {
        guard field.utf8.contains(UInt8(ascii: "\\")) else { return String(field) }
        var scalars = String.UnicodeScalarView()
        var escaped = false
        for scalar in field.unicodeScalars {
            if escaped {
                scalars.append(scalar == "t" ? "\t" : scalar == "n" ? "\n" : scalar == "r" ? "\r" : scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
