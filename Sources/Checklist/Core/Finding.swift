import Foundation
import Manifest

public enum Severity: String, Sendable, CaseIterable, Comparable, Codable {
    case note, warning, error

    private var rank: Int { Severity.allCases.firstIndex(of: self)! }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// The six review questions of the HealthKit checklist (seed 003), in its order.
public enum ReviewQuestion: Int, Sendable, CaseIterable, Comparable, Codable {
    case availabilityChecked = 1
    case completionInterpreted
    case readStatusProbed
    case usageStringsMeaningful
    case widgetsDoNotRequest
    case writeStatusRechecked

    public var text: String {
        switch self {
        case .availabilityChecked: return "Is `isHealthDataAvailable()` called before any HealthKit operations?"
        case .completionInterpreted: return "Is the `requestAuthorization` completion handler correctly interpreted?"
        case .readStatusProbed: return "Is there any attempt to determine read permission status?"
        case .usageStringsMeaningful: return "Are all Info.plist usage description keys present with meaningful text?"
        case .widgetsDoNotRequest: return "Do widgets avoid calling `requestAuthorization`?"
        case .writeStatusRechecked: return "Is authorization status re-checked before write operations (not cached)?"
        }
    }

    /// The answer a well-built app gets. The checklist words question 3 as the anti-pattern
    /// ("Is there any attempt…"), so there "no" is the good answer; the wording is kept, and the
    /// answer's `mark` says at a glance whether it is good.
    public var healthyAnswer: Answer.Status { self == .readStatusProbed ? .no : .yes }
    public var unhealthyAnswer: Answer.Status { self == .readStatusProbed ? .yes : .no }

    /// Questions 1–3, 5 and 6 can only be answered from code.
    public var needsSources: Bool { self != .usageStringsMeaningful }

    public static func < (a: ReviewQuestion, b: ReviewQuestion) -> Bool { a.rawValue < b.rawValue }
}

/// Why a finding does not count: an `ignore:` entry in the config or an inline comment.
public struct Suppression: Sendable, Hashable {
    public enum Origin: String, Sendable, CaseIterable, Codable { case config, inline }
    public var origin: Origin
    public var reason: String
    public var location: FileLocation

    public init(origin: Origin, reason: String, location: FileLocation) { self.origin = origin; self.reason = reason; self.location = location }
}

/// One problem a rule found, with the evidence a reviewer needs: where, and the text seen there.
public struct Finding: Sendable, Hashable {
    public var ruleID: String
    public var severity: Severity
    public var message: String
    public var location: FileLocation
    /// The line of the input the rule looked at, as written.
    public var quote: String
    /// The target the finding belongs to: the app id or an extension id.
    public var target: String
    public var suppression: Suppression?
    /// Up to two lines before and after the quoted one, as written, when the file is text the
    /// audit read (code, property lists): a reviewer sees the line in its place.
    public var context: QuoteContext?

    public init(ruleID: String, severity: Severity, message: String, location: FileLocation, quote: String, target: String) {
        self.ruleID = ruleID; self.severity = severity; self.message = Clipped.text(message, limit: Clipped.messageLimit)
        self.location = location; self.quote = Clipped.text(quote, limit: Clipped.quoteLimit); self.target = target
    }

    public var isSuppressed: Bool { suppression != nil }

    /// Stable identity across unrelated edits: rule, file and the normalized quoted text, never the line.
    public var fingerprint: String {
        let normalized = quote.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return StableDigest.hex("\(ruleID)|\(location.file)|\(normalized)")
    }
}

/// The lines around a finding's quoted line.
public struct QuoteContext: Sendable, Hashable {
    public var before: [String]
    public var after: [String]
    /// The quoted line's own indentation, which the quote leaves out: shown before it, the three
    /// lines line up as in the file.
    public var indent: String = ""
    public init(before: [String], after: [String], indent: String = "") { self.before = before; self.after = after; self.indent = indent }

    public static let radius = 2

    /// The context of `line` (from 1) in `lines`; nil when the line is not in the text.
    static func around(_ line: Int, in lines: [Substring]) -> QuoteContext? {
        guard line >= 1, line <= lines.count else { return nil }
        let clip = { (text: Substring) in Clipped.text(String(text), limit: Clipped.quoteLimit) }
        let indent = lines[line - 1].prefix { $0 == " " || $0 == "\t" }
        return QuoteContext(before: lines[max(0, line - 1 - radius)..<(line - 1)].map(clip),
                            after: lines[line..<min(lines.count, line + radius)].map(clip), indent: String(indent.prefix(40)))
    }
}
