import Manifest
import SwiftSyntax

/// What the source rules take a call or a name to mean in HealthKit terms. Apps wrap HealthKit in
/// their own types, so besides the framework's names this also reads the app's function names
/// (`fetchSteps`, `saveWorkout`) — a heuristic, kept in one place so every rule agrees.
struct HealthKitVocabulary {
    /// Names of variables, properties and parameters that hold an `HKHealthStore`, across the app.
    let storeNames: Set<String>
    /// Per file, names declared there as something else (`let store = EKEventStore()`): in that file
    /// `store.save(event)` is EventKit's, whatever another file calls `store`.
    let otherNamesByFile: [SyntaxIdentifier: Set<String>]

    init(sources: [ParsedSource]) {
        // Files side by side: each gives its store names and its names that hold something else.
        // A file several targets compile gives the same names for each: read once.
        let files = UniqueFiles(sources).first
        let perFile = ParallelMap.map(files) { Self.names(in: $0) }
        var names: Set<String> = []
        var others: [SyntaxIdentifier: Set<String>] = [:]
        for (source, found) in zip(files, perFile) {
            names.formUnion(found.stores)
            if !found.others.isEmpty { others[source.tree.id] = found.others }
        }
        storeNames = names
        otherNamesByFile = others
    }

    private static func names(in source: ParsedSource) -> (stores: Set<String>, others: Set<String>) {
        var names: Set<String> = [], others: Set<String> = []
        // One pass over the bindings: store names, and the file's names that hold something else.
        for binding in source.tree.collect(PatternBindingSyntax.self) {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            let type = binding.typeAnnotation?.type.trimmedText ?? ""
            let value = binding.initializer.map { ExprShape.stripped($0.value) }
            // `= HKHealthStore()`, or `= SharedHealthStore.store` (a reference, not `RideStore(healthStore: …)`).
            let isReference = value.map { $0.is(DeclReferenceExprSyntax.self) || $0.is(MemberAccessExprSyntax.self) } ?? false
            let isConstruction = value?.is(FunctionCallExprSyntax.self) ?? false
            // Only references and constructions are read as text (a closure's or literal's text never matters).
            let text = isReference || isConstruction ? value?.trimmedText ?? "" : ""
            let lowered = text.lowercased()
            if type.hasPrefix("HKHealthStore") || text.hasPrefix("HKHealthStore(") || (isReference && lowered.contains("healthstore")) {
                names.insert(name)
            }
            let declared = type + (isConstruction ? text : "")
            if !declared.isEmpty, !declared.contains("HKHealthStore"), !(type.lowercased().contains("healthstore") || (isConstruction && lowered.contains("healthstore"))),
               (!type.isEmpty || isConstruction) {
                others.insert(name)
            }
        }
        for parameter in source.tree.collect(FunctionParameterSyntax.self) where parameter.type.trimmedText.hasPrefix("HKHealthStore") {
            names.insert(parameter.localName)
        }
        return (names, others)
    }

    // MARK: Authorization calls

    static let statusCheck = "authorizationStatus"
    static let requestStatusChecks: Set<String> = ["statusForAuthorizationRequest", "getRequestStatusForAuthorization"]
    static let availabilityCheck = "isHealthDataAvailable"

    /// Frameworks whose `requestAuthorization` is not HealthKit's.
    private static let otherAuthorizers = ["notification", "photo", "speech", "media", "tracking", "location", "contact",
                                           "event", "calendar", "motion", "music", "siri", "homekit", "camera"]

    /// `requestAuthorization(toShare:read:)` in either form, or an app wrapper of it on something health-named
    /// (`HealthKitManager.shared.requestAuthorization()`); not `UNUserNotificationCenter`'s or `PHPhotoLibrary`'s.
    func isAuthorizationRequest(_ call: FunctionCallExprSyntax) -> Bool {
        guard ExprShape.calledName(call) == "requestAuthorization" else { return false }
        let labels = ExprShape.labels(call)
        if labels.contains("toShare") || labels.contains("read") || labels.contains("readTypes") { return true }
        if labels.contains("options") || labels.contains("for") || labels.contains("access") { return false }
        let base = ExprShape.base(of: call)?.trimmedText.lowercased() ?? ""
        if Self.otherAuthorizers.contains(where: base.contains) { return false }
        if base.contains("health") || base.hasPrefix("hk") || isStoreReceiver(ExprShape.base(of: call)) { return true }
        if base.isEmpty {
            // A bare call inside the app's own health type (`HealthManager`) calls its wrapper.
            return SyntaxScope.types(around: call).contains { SyntaxScope.typeName(of: $0)?.lowercased().contains("health") == true }
        }
        return false
    }

    /// HealthKit's own request (with the type sets), as opposed to an app wrapper.
    static func isFrameworkRequest(_ call: FunctionCallExprSyntax) -> Bool {
        ExprShape.calledName(call) == "requestAuthorization" && ExprShape.labels(call).contains { $0 == "toShare" || $0 == "read" || $0 == "readTypes" }
    }

    static func isStatusCheck(_ call: FunctionCallExprSyntax) -> Bool { ExprShape.calledName(call) == statusCheck }

    /// Whether the code below `node` calls `authorizationStatus(for:)`.
    static func checksStatus(_ node: some SyntaxProtocol) -> Bool { node.calls.contains(where: isStatusCheck) }

    /// An expression statement awaiting the call: `try await store.requestAuthorization(…)`.
    static func isAwaited(_ call: FunctionCallExprSyntax) -> Bool {
        for ancestor in call.ancestors {
            if ancestor.is(AwaitExprSyntax.self) { return true }
            if ancestor.is(CodeBlockItemSyntax.self) || ancestor.is(ClosureExprSyntax.self) { return false }
        }
        return false
    }

    func isStoreReceiver(_ base: ExprSyntax?) -> Bool {
        guard let base else { return false }
        let text = base.trimmedText
        if text.lowercased().contains("healthstore") || text.hasPrefix("HKHealthStore(") { return true }
        guard let name = ExprShape.referencedName(base) else { return false }
        if otherNamesByFile[base.root.id]?.contains(name) == true { return false }
        return storeNames.contains(name)
    }

    // MARK: Reading and writing

    static let characteristicReads: Set<String> = [
        "dateOfBirthComponents", "dateOfBirth", "biologicalSex", "bloodType", "fitzpatrickSkinType", "wheelchairUse", "activityMoveMode",
    ]

    /// App functions that read, by their name's first word.
    private static let readPrefixes = ["fetch", "load", "read", "query", "display", "refresh"]

    /// `store.execute(q)`, `HKSampleQuery(…)`, `descriptor.result(for:)`, characteristic reads, `fetchSteps()`.
    static func isRead(_ call: FunctionCallExprSyntax) -> Bool {
        isFrameworkRead(call) || ExprShape.calledName(call).map { hasPrefixWord($0, in: readPrefixes) } == true
    }

    /// HealthKit's own reads only: `store.execute(q)` (Swift 2's `executeQuery`), `HKSampleQuery(…)`,
    /// `descriptor.result(for:)`, characteristic reads — not an app function whose name sounds like one.
    static func isFrameworkRead(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ExprShape.calledName(call) else { return false }
        if characteristicReads.contains(name) { return true }
        if name == "execute" && !call.arguments.isEmpty { return true }
        if name.hasPrefix("HK") && (name.hasSuffix("Query") || name.hasSuffix("QueryDescriptor")) { return true }
        return (name == "result" || name == "results") && ExprShape.labels(call) == ["for"]
    }

    /// A HealthKit read the way data-before-authorization counts it: framework reads and `fetch…`/`load…` functions.
    static func isDataAccess(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ExprShape.calledName(call) else { return false }
        // Showing or refreshing the screen is not itself a HealthKit call.
        if hasPrefixWord(name, in: ["display", "refresh"]) { return false }
        return isRead(call) || (name == "save" && !call.arguments.isEmpty)
    }

    /// `store.save(x)`, workout sessions and builders, and app functions named for writing (`saveWeight`,
    /// `startRecordingWorkout`, `logSession`).
    static func isWrite(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ExprShape.calledName(call) else { return false }
        if (name == "save" || name == "delete") && !call.arguments.isEmpty { return true }
        if ["HKWorkoutBuilder", "HKLiveWorkoutBuilder", "HKWorkoutSession", "beginCollection", "finishWorkout", "startActivity"].contains(name) {
            return true
        }
        let lower = name.lowercased()
        if ["save", "write", "record", "workout"].contains(where: lower.contains) { return true }
        // `logSession`, not the logger's `log(…)`.
        return hasPrefixWord(name, in: ["log", "store", "add"], alone: false)
    }

    /// `fetchSteps` starts with the word `fetch`; `fetched` and `loader` do not.
    private static func hasPrefixWord(_ name: String, in words: [String], alone: Bool = true) -> Bool {
        words.contains { word in
            guard name.hasPrefix(word) else { return false }
            let rest = name.dropFirst(word.count)
            return rest.isEmpty ? alone : rest.first!.isUppercase
        }
    }

    /// Calls that neither read, write nor act on a result: logging, dispatch wrappers, handing a
    /// value back to a caller.
    private static let benign: Set<String> = [
        "print", "debugPrint", "NSLog", "os_log", "dump", "assert", "assertionFailure", "precondition", "preconditionFailure",
        "fatalError", "debug", "info", "notice", "warning", "error", "fault", "trace", "critical", "log",
        "async", "asyncAfter", "sync", "run", "Task", "detached", "resume", "completion", "completionHandler", "handler",
        "callback", "reply", "send",
    ]

    /// A call that does something with the result of a request (reads, writes, starts, shows a screen).
    static func isAction(_ call: FunctionCallExprSyntax) -> Bool {
        if isRead(call) || isWrite(call) { return true }
        guard let name = ExprShape.calledName(call) else { return false }
        if benign.contains(name) || name.first?.isUppercase == true { return false }
        return true
    }

    // MARK: Names that mean "authorized"

    /// `isAuthorized`, `hasHealthPermission`, `accessGranted`, `healthKitEnabled`.
    static func isAuthorizationFlag(_ name: String) -> Bool {
        let lower = name.lowercased()
        if ["authoriz", "permission", "granted", "hasaccess", "canaccess", "canread", "canwrite"].contains(where: lower.contains) { return true }
        return lower.contains("health") && ["enabled", "connected", "allowed", "access"].contains(where: lower.contains)
    }

    /// A UserDefaults key or stored property that records authorization.
    static let otherPermissions = ["location", "notification", "push", "camera", "photo", "microphone", "contact", "calendar", "reminder",
                                   "bluetooth", "motion", "tracking", "siri", "speech", "media", "music", "homekit", "nfc"]

    /// Frameworks whose own `requestAuthorization` / `authorizationStatus` an app calls: photos, notifications, location, tracking, …
    static let otherFrameworkPrefixes = ["PH", "UN", "CL", "AV", "AT", "EK", "CN", "MP", "SF", "HM", "CB", "NFC", "IN", "ST", "FA", "CM", "SR", "MusicKit"]

    /// Whether a call's receiver is another framework's: a type of its prefix (`PHPhotoLibrary`), or a
    /// name that speaks of another permission (`locationManager`, `notificationCenter`).
    static func isOtherFrameworkReceiver(_ base: ExprSyntax?) -> Bool {
        guard let base else { return false }
        let text = base.trimmedText
        let root = String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        if let first = root.first, first.isUppercase,
           otherFrameworkPrefixes.contains(where: { root.hasPrefix($0) && root.count > $0.count && root.dropFirst($0.count).first?.isUppercase == true }) {
            return true
        }
        let lower = text.lowercased()
        return !lower.contains("health") && otherPermissions.contains(where: lower.contains)
    }

    static func isAuthorizationKey(_ text: String) -> Bool {
        let lower = text.lowercased()
        // Another framework's permission (`promptUserForLocationPermission`, `notificationsAuthorized`)
        // is not HealthKit's, unless the key speaks of health too.
        if !lower.contains("health"), otherPermissions.contains(where: lower.contains) { return false }
        if ["authoriz", "permission", "granted"].contains(where: lower.contains) { return true }
        // `healthKitEnabled`, `healthAccess`, `hasConnectedToHealthKit` — but not a feature toggle such
        // as `womensHealthEnabled`, which says what the person turned on in the app, not what HealthKit allows.
        if lower.contains("healthkit") { return ["enabled", "connected", "allowed", "access", "status"].contains(where: lower.contains) }
        return lower.contains("health") && ["access", "connected", "allowed"].contains(where: lower.contains)
    }

    /// `true`, `.authorized`, `.granted`, `AccessState.authorized`.
    static func isGrantedValue(_ operand: Operand) -> Bool {
        guard let single = operand.single else { return false }
        if ExprShape.isBool(single, true) { return true }
        guard let member = ExprShape.memberName(single) else { return false }
        return ["authorized", "granted", "allowed", "sharingAuthorized", "connected", "enabled"].contains(member)
    }

    /// Code talks about authorization: names mentioning authoriz/permission, an `…Auth` helper, or the status APIs.
    static func isAuthorizationRelated(_ node: some SyntaxProtocol) -> Bool {
        node.mentions { name in
            let lower = name.lowercased()
            if lower.contains("authoriz") || lower.contains("permission") { return true }
            return lower.hasSuffix("auth") && !lower.hasSuffix("oauth")
        }
    }
}

extension ParsedSource {
    /// Whether the file imports HealthKit (a fragment without imports counts when it names HK types).
    var usesHealthKit: Bool {
        tree.statements.contains { $0.item.as(ImportDeclSyntax.self)?.path.trimmedText == "HealthKit" }
            || tree.mentions { $0.hasPrefix("HK") }
    }
}
