import Manifest

/// What a rule is, for the catalogue, the rule pages and SARIF: SwiftLint-style, each rule carries
/// examples that must trigger it and examples that must not, and the test suite runs them all.
public struct RuleDescription: Sendable {
    public var id: String
    public var title: String
    public var severity: Severity
    public var questions: [ReviewQuestion]
    /// The code the rule reads; empty when it reads the app's declarations (Info.plist,
    /// entitlements, project, dependencies), which every app has.
    public var reads: Set<CodeKind>
    /// What a finding of the rule foretells for the person using the app, when it is that grave.
    public var predicts: Consequence?
    /// Why it matters, in Markdown (rendered through cmark on the rule's page).
    public var rationale: String
    /// Examples are built when asked for (tests, rule pages, `explain`), not by every audit: the
    /// catalogue's descriptions are read on each run, and building ~200 examples cost it ~15 ms.
    public var triggering: [RuleExample] { makeTriggering() }
    public var nonTriggering: [RuleExample] { makeNonTriggering() }
    private let makeTriggering: @Sendable () -> [RuleExample]
    private let makeNonTriggering: @Sendable () -> [RuleExample]

    public init(id: String, title: String, severity: Severity, questions: [ReviewQuestion], reads: Set<CodeKind> = [],
                predicts: Consequence? = nil, rationale: String,
                triggering: @autoclosure @escaping @Sendable () -> [RuleExample],
                nonTriggering: @autoclosure @escaping @Sendable () -> [RuleExample]) {
        self.id = id; self.title = title; self.severity = severity; self.questions = questions
        self.reads = reads; self.predicts = predicts
        self.rationale = rationale; makeTriggering = triggering; makeNonTriggering = nonTriggering
    }

    /// Whether the rule can report on `manifest`: it reads the declarations every app has, or code
    /// of a kind the app holds (a Swift app gets no React Native or Flutter rule).
    public func applies(to manifest: AppManifest) -> Bool {
        reads.isEmpty || !reads.isDisjoint(with: manifest.codeKinds)
    }

    /// About what the person is told or what leaves the device: usage strings, the privacy
    /// manifest, health data disclosed.
    public var concernsPrivacy: Bool {
        predicts == .disclosure || questions.contains(.usageStringsMeaningful) || id.hasPrefix("privacy-")
    }
}

/// The code of an app a rule reads.
public enum CodeKind: String, Sendable, CaseIterable {
    case swift
    /// React Native, Capacitor and Cordova apps' JavaScript / TypeScript.
    case javaScript = "javascript"
    /// Flutter apps' Dart.
    case dart
}

/// What a finding foretells when it is that grave: code scanning ranks these as security alerts.
public enum Consequence: String, Sendable {
    /// The app ends in an exception (`NSInvalidArgumentException` at `requestAuthorization`).
    case crash
    /// Health data reaches someone the person did not agree to (advertising, tracking, iCloud).
    case disclosure
}

extension AppManifest {
    /// The kinds of code the app holds, by its kind and by the code read from it: a Capacitor app
    /// (kind `swift`) has JavaScript too, a Flutter app's iOS project has Swift.
    public var codeKinds: Set<CodeKind> {
        var kinds: Set<CodeKind> = []
        let language = config.kind.traits.language
        if language == .swift || targets.contains(where: { !$0.sources.isEmpty }) { kinds.insert(.swift) }
        if language == .javaScript || !javaScriptSources.isEmpty { kinds.insert(.javaScript) }
        if language == .dart || !dartSources.isEmpty { kinds.insert(.dart) }
        return kinds
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
