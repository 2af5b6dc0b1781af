import Manifest
import SwiftSyntax

/// Widgets and other extensions cannot present the permission sheet.
struct ExtensionRequestsAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "extension-requests-authorization", title: "Extension requests HealthKit authorization", severity: .error,
        questions: [.widgetsDoNotRequest], reads: [.swift],
        rationale: """
        A widget, its timeline provider or any other app extension cannot show HealthKit's permission sheet: \
        `requestAuthorization` there fails or silently does nothing, and the person is never asked. Extensions rely on \
        what the containing app was granted. Use `statusForAuthorizationRequest(toShare:read:)` to find out whether \
        the app still has to ask, and show an "open the app" state instead.
        """,
        triggering: [
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Sources/Provider.swift": """
                import HealthKit
                import WidgetKit

                struct StepsEntry: TimelineEntry { let date: Date }

                struct Provider: TimelineProvider {
                    let store = HKHealthStore()

                    func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now) }

                    func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(StepsEntry(date: .now)) }

                    func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                        Task {
                            try? await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                            completion(Timeline(entries: [StepsEntry(date: .now)], policy: .atEnd))
                        }
                    }
                }
                """,
            ]),
            // Provider code compiled into the app target is still a provider.
            .healthApp(["Sources/StepsWidget.swift": """
            import HealthKit
            import WidgetKit

            struct StepsEntry: TimelineEntry { let date: Date }

            struct StepsProvider {
                let healthStore = HKHealthStore()
            }

            extension StepsProvider: TimelineProvider {
                func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now) }
                func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(StepsEntry(date: .now)) }
                func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                    healthStore.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in
                        completion(Timeline(entries: [StepsEntry(date: .now)], policy: .atEnd))
                    }
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Sources/Provider.swift": """
                import HealthKit
                import WidgetKit

                struct StepsEntry: TimelineEntry { let date: Date; let needsApp: Bool }

                struct Provider: TimelineProvider {
                    let store = HKHealthStore()

                    func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now, needsApp: false) }

                    func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(placeholder(in: context)) }

                    func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                        Task {
                            guard HKHealthStore.isHealthDataAvailable() else { return }
                            let status = try? await store.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                            let entry = StepsEntry(date: .now, needsApp: status == .shouldRequest)
                            completion(Timeline(entries: [entry], policy: .atEnd))
                        }
                    }
                }
                """,
            ]),
            .healthApp([
                "Sources/Access.swift": """
                import HealthKit
                import UserNotifications

                final class Access {
                    let store = HKHealthStore()

                    func ask() async throws {
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    }
                }
                """,
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                // Notification permission in an extension is not HealthKit's.
                "Widget/Sources/Reminders.swift": """
                import UserNotifications

                func askForReminders() async throws -> Bool {
                    try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])
                }
                """,
            ]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        let widgetTypes = Set(context.usage.widgetProviders.map(\.type))
        let appFiles = Set(context.manifest.main.sources.map(\.path))
        let reach = ExtensionReach(sources: context.sources, appFiles: appFiles, widgetTypes: widgetTypes)
        let uncalled = context.uncalledSwift
        // HealthKit's own requests each target compiles (code under `#if !WIDGET` is not in the widget).
        var frameworkRequests: [String: [FunctionCallExprSyntax]] = [:]
        for source in context.sources {
            frameworkRequests[source.target, default: []] += source.calls(named: "requestAuthorization").filter(HealthKitVocabulary.isFrameworkRequest)
        }
        return context.sources.flatMap { source in
            source.calls(named: "requestAuthorization").filter(vocabulary.isAuthorizationRequest).compactMap { call -> Finding? in
                if source.isExtension {
                    // The app's own `requestAuthorization()` whose request this target does not compile asks nothing here.
                    if !HealthKitVocabulary.isFrameworkRequest(call), Self.wrapperAsksNothing(call, in: source.target, sources: context.sources,
                                                                                           requests: frameworkRequests[source.target] ?? []) { return nil }
                    // A file the app compiles too asks for the app, unless the extension's own code calls into it.
                    if appFiles.contains(source.file.path) && !reach.reaches(call, in: source.target) { return nil }
                    // A request in a function nothing names never runs, in the extension or anywhere.
                    if uncalled?.declaration(around: Syntax(call)) != nil { return nil }
                    return finding("requestAuthorization in extension target `\(source.target)`: extensions cannot present the HealthKit "
                                   + "permission sheet; ask in the app and use statusForAuthorizationRequest here", at: call, in: source)
                }
                guard let type = SyntaxScope.types(around: call).compactMap(SyntaxScope.typeName).first(where: widgetTypes.contains) else { return nil }
                return finding("requestAuthorization inside `\(type)`, a widget/timeline provider: widgets cannot present the HealthKit "
                               + "permission sheet; ask in the app and use statusForAuthorizationRequest here", at: call, in: source)
            }
        }
    }
}

extension ExtensionRequestsAuthorizationRule {
    /// Whether the app's functions named like the wrapper `call` (in `target`'s code) hold none of
    /// the target's framework requests: the request inside is compiled out there. False when the
    /// target declares no such function (the wrapper's body is not in view).
    static func wrapperAsksNothing(_ call: FunctionCallExprSyntax, in target: String, sources: [ParsedSource], requests: [FunctionCallExprSyntax]) -> Bool {
        guard let name = ExprShape.calledName(call) else { return false }
        let declarations = sources.filter { $0.target == target }.flatMap { $0.tree.collect(FunctionDeclSyntax.self) }
            .filter { $0.name.text == name && ExprShape.fits(call, $0) && $0.body != nil }
        guard !declarations.isEmpty else { return false }
        return !declarations.contains { declaration in requests.contains { declaration.encloses($0) } }
    }
}

/// Whether code of a file shared by the app and an extension runs in the extension: its function is
/// called, directly or through up to four other functions, from a file only the extension compiles
/// or from a widget provider (calls matched by name, as the app's own functions are).
struct ExtensionReach {
    let sources: [ParsedSource]
    let appFiles: Set<String>
    let widgetTypes: Set<String>

    func reaches(_ node: some SyntaxProtocol, in target: String) -> Bool {
        let own = sources.filter { $0.target == target }
        var names = [callee(of: node)]
        var seen: Set<String> = []
        for _ in 0..<5 {
            var next: [Callee?] = []
            for case let callee? in names where seen.insert(callee.name + " " + (callee.type ?? "")).inserted {
                if callee.isProperty {
                    // A static property's initializer runs when the property is first read.
                    for source in own where ByteSearch.contains(source.file.text, callee.name) {
                        for use in Self.references(to: callee, in: source) {
                            if !appFiles.contains(source.file.path) { return true }
                            if SyntaxScope.types(around: use).compactMap(SyntaxScope.typeName).contains(where: widgetTypes.contains) { return true }
                            next.append(self.callee(of: use))
                        }
                    }
                    continue
                }
                for source in own {
                    for call in source.calls(named: callee.name) where Self.mayCall(call, callee, in: source) {
                        if !appFiles.contains(source.file.path) { return true }
                        if SyntaxScope.types(around: call).compactMap(SyntaxScope.typeName).contains(where: widgetTypes.contains) { return true }
                        next.append(self.callee(of: call))
                    }
                }
            }
            if next.contains(where: { $0 == nil }) { return true }
            names = next
            if names.isEmpty { return false }
        }
        return true
    }

    /// A function by name, with the type that declares it and whether only its own file can call it.
    struct Callee: Hashable {
        var name: String
        var type: String?
        var file: String?
        /// A static property (`static let shared = Tracker()`), reached where it is read.
        var isProperty = false
    }

    /// Reads of a static property: `Type.name`, or `name` alone inside its own type.
    static func references(to property: Callee, in source: ParsedSource) -> [TokenSyntax] {
        source.tree.tokens(viewMode: .sourceAccurate).filter { token in
            guard token.text == property.name, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return false }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                guard let base = member.base?.trimmedDescription else { return true }
                return property.type == nil || base == property.type || base == "Self"
            }
            return property.type == nil || SyntaxScope.types(around: token).compactMap(SyntaxScope.typeName).first == property.type
        }
    }

    /// Whether `call` may run the function: same name, and — where the code shows it — the same
    /// type. A `private` function is called from its own file only; an unqualified call inside
    /// another type, or a call on a value of another type (`model.fetch()` with `var model:
    /// HealthAsyncModel`), runs that type's function of the same name, not this one.
    static func mayCall(_ call: FunctionCallExprSyntax, _ callee: Callee, in source: ParsedSource) -> Bool {
        if let file = callee.file, source.file.path != file { return false }
        guard let type = callee.type else { return true }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return true }
            if base.trimmedDescription == "self" { return SyntaxScope.types(around: call).compactMap(SyntaxScope.typeName).first.map { $0 == type } ?? true }
            let root = base.trimmedDescription.split(separator: ".").first.map(String.init) ?? ""
            if let first = root.first, first.isUppercase { return root == type }
            let declared = declaredTypes(of: root, in: source.file.text)
            return declared.isEmpty || declared.contains(type)
        }
        // An unqualified call runs the function of the type it is written in, when that type has one.
        guard let around = SyntaxScope.types(around: call).compactMap(SyntaxScope.typeName).first else { return true }
        return around == type || !declares(around, callee.name, in: source)
    }

    /// `var model: HealthAsyncModel`, `let model = HealthAsyncModel()`: the types a name is given in a file.
    static func declaredTypes(of name: String, in text: String) -> Set<String> {
        guard !name.isEmpty, text.contains(name) else { return [] }
        var types: Set<String> = []
        for line in text.split(separator: "\n") where line.contains(name) {
            for separator in [":", "="] {
                guard let range = line.range(of: name + " " + separator) ?? line.range(of: name + separator) else { continue }
                let rest = line[range.upperBound...].drop { $0 == " " }
                let type = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if let first = type.first, first.isUppercase { types.insert(String(type)) }
            }
        }
        return types
    }

    /// Whether `type` declares a function called `name` in this file.
    private static func declares(_ type: String, _ name: String, in source: ParsedSource) -> Bool {
        source.tree.collect(FunctionDeclSyntax.self).contains { function in
            function.name.text == name && SyntaxScope.types(around: function).compactMap(SyntaxScope.typeName).first == type
        }
    }

    /// The function around `node` as callers name it: its function's name and type (its type's name
    /// for an initializer, and for an instance's computed property — a SwiftUI view's `body` runs
    /// where the view is made); nil for code no name reaches (a static property, a stored
    /// property's closure, an `@main` type, top-level code), taken as run.
    private func callee(of node: some SyntaxProtocol) -> Callee? {
        let function = SyntaxScope.function(of: node)
        let typeDecl = SyntaxScope.types(around: node).first
        let type = typeDecl.flatMap(SyntaxScope.typeName)
        if function.is(AccessorBlockSyntax.self) || function.is(AccessorDeclSyntax.self), let type, let typeDecl,
           let property = function.ancestors.lazy.compactMap({ $0.as(VariableDeclSyntax.self) }).first,
           !property.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }),
           !(typeDecl.asProtocol(WithAttributesSyntax.self)?.attributes.contains(where: { $0.trimmedDescription == "@main" }) ?? false) {
            return Callee(name: type, type: nil, file: nil)
        }
        if let declaration = function.as(FunctionDeclSyntax.self) {
            let isPrivate = declaration.modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
            let file = isPrivate ? sources.first { $0.tree.id == node.root.id }?.file.path : nil
            return Callee(name: declaration.name.text, type: type, file: file)
        }
        if function.is(InitializerDeclSyntax.self) { return type.map { Callee(name: $0, type: nil, file: nil) } }
        // `static let shared = Tracker()`: runs when `Tracker.shared` is first read, not before.
        if let type, !function.is(FunctionDeclSyntax.self),
           let binding = node.ancestors.lazy.compactMap({ $0.as(PatternBindingSyntax.self) }).first,
           let property = binding.parent?.parent?.as(VariableDeclSyntax.self),
           property.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            return Callee(name: name, type: type, file: nil, isProperty: true)
        }
        return nil
    }
}
