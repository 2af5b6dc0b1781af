/// Where a file's lines start, from one scan of its bytes. Lines end where swift-syntax's
/// `SourceLocationConverter` ends them (`\n`, `\r`, `\r\n`), so locations are the converter's;
/// building that converter walked each tree twice and cost more than the scan.
struct LineTable: Sendable {
    /// UTF-8 offsets just past each line break.
    private let lineEnds: [Int]
    private let byteCount: Int

    init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        var ends: [Int] = []
        byteCount = text.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
                if byte == 0x0A || byte == 0x0D { ends.append(index) }
            }
            return bytes.count
        } ?? 0
        lineEnds = ends
    }

    /// Line and column (both from 1, the column in UTF-8 bytes) of an offset, clamped to the file.
    func location(ofUTF8Offset offset: Int) -> (line: Int, column: Int) {
        let position = max(0, min(offset, byteCount))
        let index = Self.upperBound(position, in: lineEnds)
        return (index + 1, position - (index == 0 ? 0 : lineEnds[index - 1]) + 1)
    }

    /// The UTF-8 range of line `line` (from 1), line break included; nil past the end.
    func range(ofLine line: Int) -> Range<Int>? {
        guard line >= 1, line <= lineEnds.count + 1 else { return nil }
        return (line == 1 ? 0 : lineEnds[line - 2])..<(line <= lineEnds.count ? lineEnds[line - 1] : byteCount)
    }

    /// The first index whose value is greater than `value`.
    private static func upperBound(_ value: Int, in sorted: [Int]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
