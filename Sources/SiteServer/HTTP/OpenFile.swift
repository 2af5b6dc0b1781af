import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file held open while it is sent. The size comes from the descriptor (fstat), so
/// Content-Length matches what is read even if the site is rebuilt meanwhile: the writer
/// replaces the folder by renaming, and an open file keeps its old contents.
final class OpenFile: @unchecked Sendable {
    let fd: Int32
    let size: Int

    /// Nil unless `path` is a regular file now. O_NOFOLLOW: the path was already resolved, so a
    /// symlink appearing in its place since is refused. O_NONBLOCK: opening a FIFO cannot hang.
    static func open(_ path: String) -> OpenFile? {
        #if canImport(Glibc)
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        #else
        let fd = Darwin.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        #endif
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return OpenFile(fd: fd, size: Int(info.st_size))
    }

    private init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes at `offset` into `buffer`; 0 at the end of the file.
    func read(into buffer: inout [UInt8], at offset: Int, count: Int) -> Int {
        let wanted = min(count, buffer.count)
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
            if got < 0 && errno == EINTR { continue }
            return max(got, 0)
        }
    }

    /// Where the last `marker` starts, reading backwards in windows of `window` bytes, so a
    /// page of any size is searched in bounded memory. Windows overlap by the marker's length
    /// less one, so a marker across a window boundary is found.
    func lastOffset(of marker: [UInt8], window: Int) -> Int? {
        guard !marker.isEmpty, size >= marker.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: window + marker.count - 1)
        var end = size
        while end > 0 {
            let start = max(0, end - window)
            let length = min(size, end + marker.count - 1) - start
            let got = read(into: &buffer, at: start, count: length)
            guard got == length else { return nil }
            // Only matches that start before `end`: later ones were in the previous window.
            var index = min(end - start, got - marker.count + 1) - 1
            while index >= 0 {
                if buffer[index] == marker[0], buffer[index..<(index + marker.count)].elementsEqual(marker) { return start + index }
                index -= 1
            }
            end = start
        }
        return nil
    }
}
