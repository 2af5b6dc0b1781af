import Manifest

/// What a rule is, for the catalogue, the rule pages and SARIF: SwiftLint-style, each rule carries
/// examples that must trigger it and examples that must not, and the test suite runs them all.
public struct RuleDescription: Sendable {
    public var id: String
    public var title: String
    public var severity: Severity
    public var questions: [ReviewQuestion]
    /// Why it matters, in Markdown (rendered through cmark on the rule's page).
    public var rationale: String
    /// Examples are built when asked for (tests, rule pages, `explain`), not by every audit: the
    /// catalogue's descriptions are read on each run, and building ~200 examples cost it ~15 ms.
    public var triggering: [RuleExample] { makeTriggering() }
    public var nonTriggering: [RuleExample] { makeNonTriggering() }
    private let makeTriggering: @Sendable () -> [RuleExample]
    private let makeNonTriggering: @Sendable () -> [RuleExample]

    public init(id: String, title: String, severity: Severity, questions: [ReviewQuestion], rationale: String,
                triggering: @autoclosure @escaping @Sendable () -> [RuleExample],
                nonTriggering: @autoclosure @escaping @Sendable () -> [RuleExample]) {
        self.id = id; self.title = title; self.severity = severity; self.questions = questions
        self.rationale = rationale; makeTriggering = triggering; makeNonTriggering = nonTriggering
    }
}

public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    func check(_ context: AuditContext) -> [Finding]
}

extension Rule {
    public var description: RuleDescription { Self.description }

    /// A finding of this rule at a plist key (or the root dict when the key is absent).
    public func finding(_ message: String, in document: PropertyListDocument, key: String?, target: String) -> Finding {
        Finding(ruleID: Self.description.id, severity: Self.description.severity, message: message,
                location: document.location(of: key), quote: document.quote(key), target: target)
    }

    /// A key the document lacks: cited at its top-level `<dict>`, whose line is no evidence of anything,
    /// so the quote says what is missing instead of repeating `<dict>`.
    public func finding(_ message: String, in document: PropertyListDocument, missingKey key: String, target: String) -> Finding {
        Finding(ruleID: Self.description.id, severity: Self.description.severity, message: message,
                location: document.location(of: nil), quote: "missing: \(key)", target: target)
    }

    /// At a token of JavaScript or Dart code, quoting its line.
    func finding(_ message: String, at token: Int, in file: JavaScriptFile, target: String) -> Finding {
        finding(message, at: file.location(of: token), quote: file.quote(token), target: target)
    }

    public func finding(_ message: String, at location: FileLocation, quote: String, target: String) -> Finding {
        Finding(ruleID: Self.description.id, severity: Self.description.severity, message: message,
                location: location, quote: quote, target: target)
    }
}
