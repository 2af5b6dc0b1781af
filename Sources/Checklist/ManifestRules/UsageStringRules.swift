import Manifest

/// Usage strings HealthKit needs: missing ones crash `requestAuthorization` or fail App Store upload.
struct UsageStringMissingRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-missing", title: "HealthKit usage string missing", severity: .error,
        questions: [.usageStringsMeaningful],
        rationale: """
        HealthKit shows the app's purpose strings on its permission sheet. Without them:

        - **App Store upload fails** (ITMS-90683) when the app has the `com.apple.developer.healthkit` entitlement but lacks \
        `NSHealthShareUsageDescription` *or* `NSHealthUpdateUsageDescription` — even for an app that only reads.
        - **The app crashes** at `requestAuthorization`: HealthKit raises `NSInvalidArgumentException` \
        ("NSHealthShareUsageDescription must be set in the app's Info.plist in order to request read authorization…") \
        when read types are requested without the share string, or share types without the update string.

        A package that links HealthKit (a plugin, ResearchKit, CareKit — from `package.json`, `pubspec.yaml`, the Podfile \
        or a lockfile) puts HealthKit's API in the binary, so the upload needs both strings even when the app's own \
        code never calls it.

        Keys provided through build settings (`INFOPLIST_KEY_NSHealthShareUsageDescription`, Xcode's generated Info.plist) count as present.
        """,
        triggering: [
            .healthApp(info: ["CFBundleName": "Steady", "NSHealthShareUsageDescription": RuleExample.goodShare]),
            .healthApp(info: ["CFBundleName": "Steady"], read: ["stepCount"], share: []),
            .healthApp(["App.entitlements": ""], info: ["CFBundleName": "Steady", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate],
                       read: ["heartRate"], share: []),
            // HealthKit only through a pod: no entitlement, no request of the app's own, and the upload still needs both strings.
            .healthApp(["App.entitlements": "", "Podfile.lock": "PODS:\n  - CareKit (2.0.2)\n\nDEPENDENCIES:\n  - CareKit\n"],
                       info: ["CFBundleName": "Steady"], read: [], share: []),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(info: ["CFBundleName": "Steady"], buildSettings: [
                "INFOPLIST_KEY_NSHealthShareUsageDescription": RuleExample.goodShare,
                "INFOPLIST_KEY_NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
            ]),
            .healthApp(["App.entitlements": ""], info: ["CFBundleName": "Plain"], read: [], share: []),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        guard let plist = app.main.infoPlist else {
            // Nothing to judge (a generated Info.plist, a config without `info_plist`): the answer is
            // "cannot tell" and the notes say why; a missing file is not the app's defect.
            return []
        }
        var findings: [Finding] = []
        let needs: [(key: String, types: Set<String>, access: String)] = [
            (HealthKeys.share, context.requestedRead, "read"), (HealthKeys.update, context.requestedShare, "write"),
        ]
        for (key, types, access) in needs where app.usageString(key) == nil {
            var reasons: [String] = []
            if !types.isEmpty {
                let ids = types.sorted().compactMap { HealthKitType.named($0)?.identifier }.joined(separator: ", ")
                reasons.append("requestAuthorization crashes (NSInvalidArgumentException: \(key) must be set in the app's Info.plist in order to request \(access) authorization for the following types: \(ids))")
            }
            if context.hasHealthKitEntitlement {
                reasons.append("App Store upload is rejected (ITMS-90683): the HealthKit entitlement requires both usage strings, even for read-only apps")
            } else if let dependency = app.healthKitDependencies.first {
                reasons.append("the app depends on `\(dependency.package)` (\(dependency.location)), which links HealthKit: App Store upload is rejected (ITMS-90683) because the binary references HealthKit's API, and any permission request crashes")
            }
            guard !reasons.isEmpty else { continue }
            findings.append(finding("\(key) is missing: " + reasons.joined(separator: "; "), in: plist, missingKey: key, target: app.id))
        }
        return findings
    }
}

/// HealthKit validates the strings themselves: empty or one-word strings crash the request.
struct UsageStringInvalidRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-invalid", title: "HealthKit usage string invalid", severity: .error,
        questions: [.usageStringsMeaningful],
        rationale: """
        HealthKit checks each purpose string when the app calls `requestAuthorization`. A value that is not a string, \
        is empty, or is a single word is refused with `NSInvalidArgumentException` ("The string … is an invalid value for \
        NSHealthUpdateUsageDescription") — the app terminates. App Review also rejects empty strings.
        """,
        triggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": "", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": "Health"]),
            .healthApp(info: ["NSHealthShareUsageDescription": true, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(info: ["NSHealthShareUsageDescription": "Reads steps to chart your daily activity.",
                              "NSHealthUpdateUsageDescription": "Saves rides you record as cycling workouts."]),
            // Xcode expands build settings in Info.plist values: the text that ships is the setting's
            // (an `.xcconfig` holding the purpose strings is common).
            .healthApp(info: ["NSHealthShareUsageDescription": "$(SHARE_TEXT)", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate],
                       buildSettings: ["SHARE_TEXT": "Reads steps to chart your daily activity."]),
            // A setting the audit cannot see is `unresolved-build-variable`'s to report, not a one-word string.
            .healthApp(info: ["NSHealthShareUsageDescription": "$(SHARE_TEXT)", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        HealthKeys.usageKeys.compactMap { key in
            guard let usage = context.manifest.usageString(key) else { return nil }
            let message: String
            switch usage.value {
            case .string(let raw):
                let expansion = BuildVariables.expand(raw, settings: context.manifest.config.buildSettings)
                let text = expansion.text
                let words = text.split(whereSeparator: { $0.isWhitespace })
                if !expansion.unresolved.isEmpty && words.count <= 1 { return nil }
                if words.isEmpty { message = "\(key) is empty: HealthKit raises NSInvalidArgumentException at requestAuthorization and App Review rejects it" }
                else if words.count == 1 { message = "\(key) is a single word (\"\(text)\"): HealthKit raises NSInvalidArgumentException (\"The string \(text) is an invalid value for \(key)\")" }
                else { return nil }
            default:
                message = "\(key) must be a string, found \(usage.value.typeName)"
            }
            return finding(message, at: usage.location, quote: usage.quote, target: context.manifest.id)
        }
    }
}

/// Placeholder or generic purpose strings: App Review rejects them (guideline 5.1.1) and users deny them.
struct UsageStringVagueRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-vague", title: "HealthKit usage string is vague or a placeholder", severity: .warning,
        questions: [.usageStringsMeaningful],
        rationale: """
        A purpose string must say *which* health data the app uses and *why* (App Review guideline 5.1.1). The heuristic, \
        applied after `$(VAR)` expansion, flags a string when it:

        - contains a placeholder (`TODO`, `TBD`, `FIXME`, `lorem ipsum`, `placeholder`);
        - is shorter than 20 characters or 4 words;
        - names no kind of health data (steps, heart rate, sleep, workouts, weight, energy, …) — "We need access to your health data" fails here;
        - is the update string of an app that asks to write nothing and never saves, yet says it writes ("Need to write steps."): \
        say that the app saves nothing (the key is still required with the entitlement);
        - is the update string of an app that asks to write, yet says nothing about saving ("Moblin can show your heart rate on stream." \
        for an app that saves workouts): say what it saves and why.

        A watch app's own Info.plist strings are judged too: watchOS shows them on the watch's permission sheet.

        A specific string used word for word for reading and writing is `usage-string-repeated`, a note.

        Strings that pass: "Steady reads your steps, heart rate and sleep to chart your daily recovery." and \
        "Saves rides you record as cycling workouts in Health."
        """,
        triggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": "We need access to your health data.", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["NSHealthShareUsageDescription": "TODO: write this", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["NSHealthShareUsageDescription": "$(PRODUCT_NAME) uses Health.", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate],
                       buildSettings: ["PRODUCT_NAME": "Steady"]),
            // A watch app's own strings are what its sheet shows (Duffy's WatchKit extension).
            .healthApp(["Watch/Info.plist": RuleExample.plist(["NSHealthShareUsageDescription": "We need access to your health data.",
                                                               "NSHealthUpdateUsageDescription": RuleExample.goodUpdate])]),
            // An app that asks to write nothing, claiming it writes (Duffy: "Need to write steps.").
            .healthApp(["Sources/Steps.swift": Self.readOnlyRequest], info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": "Steady needs to write your steps."],
                read: [], share: []),
            // An app that saves workouts, whose update string only talks about showing data (Moblin).
            .healthApp(info: ["NSHealthShareUsageDescription": "Steady reads your heart rate to show it on your stream overlay.",
                              "NSHealthUpdateUsageDescription": "Steady shows your heart rate live on your stream."], share: ["workout"]),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(info: ["NSHealthShareUsageDescription": "$(PRODUCT_NAME) reads your heart rate and rides to compute training load.",
                              "NSHealthUpdateUsageDescription": "Saves rides you record as cycling workouts in Health."],
                       buildSettings: ["PRODUCT_NAME": "VeloRide"]),
            // Seen in real apps: data named as the device's metrics, and a read-only app saying it writes nothing.
            .healthApp(info: ["NSHealthShareUsageDescription": "Pulsar reads the metrics your ring records so the dashboard can chart them.",
                              "NSHealthUpdateUsageDescription": "Pulsar does not write any data to Apple Health."]),
            // Asks to write nothing and says so in its own words; the strings still name the data.
            .healthApp(["Sources/Steps.swift": Self.readOnlyRequest], info: ["NSHealthShareUsageDescription": RuleExample.goodShare,
                             "NSHealthUpdateUsageDescription": "Steady only reads your steps; nothing is ever written to Health."],
                read: [], share: []),
            // A watch app with good strings of its own.
            .healthApp(["Watch/Info.plist": RuleExample.plist(["NSHealthShareUsageDescription": RuleExample.goodShare,
                                                               "NSHealthUpdateUsageDescription": RuleExample.goodUpdate])]),
        ]
    )

    /// An app whose only request asks to write nothing, for the update-string examples.
    static let readOnlyRequest = """
        import HealthKit
        func connect(_ store: HKHealthStore) {
            store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in }
        }
        """

    static let placeholders = ["todo", "tbd", "fixme", "lorem", "ipsum", "placeholder", "xxx", "description here", "usage description"]
    /// Words that name a kind of health data; a purpose string should name at least one.
    static let dataWords = [
        "step", "heart", "pulse", "hrv", "variability", "sleep", "workout", "exercise", "activity", "activities", "ride", "run", "walk",
        "cycl", "swim", "weight", "body", "mass", "height", "bmi", "fat", "calorie", "energy", "distance", "mindful", "meditat",
        "age", "birth", "sex", "vo2", "oxygen", "blood", "glucose", "respirat", "temperature", "nutrition", "water", "cycle",
        "menstrua", "record", "medication", "fitness", "training", "recovery", "vital",
        // Real apps name their data as the device does: "the metrics from your ring", "readings".
        "metric", "measurement", "reading",
    ]
    /// A read-only app must still ship the update string; saying it writes nothing is a real purpose.
    static let writesNothing = ["does not write", "doesn't write", "never writes", "will not write", "won't write", "writes nothing", "no data is written",
                                "nothing is written", "nothing is ever written", "never written", "does not save", "doesn't save", "never saves",
                                "saves nothing", "only reads", "read-only", "read only"]

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        let writes = WriteEvidence(context)
        // The app's strings, and a watch app's own: watchOS shows the watch target's on its sheet.
        let watchTargets = app.extensions.filter { $0.kind == .watchApp }
        var findings: [Finding] = []
        for key in [HealthKeys.share, HealthKeys.update, HealthKeys.clinical] {
            var strings: [(target: String, usage: UsageString)] = app.usageString(key).map { [(app.id, $0)] } ?? []
            strings += watchTargets.compactMap { target in target.usageString(key).map { (target.id, $0) } }
            for (target, usage) in strings {
                guard let raw = usage.value.string else { continue }
                let text = BuildVariables.expand(raw, settings: app.config.buildSettings).text
                guard text.split(whereSeparator: { $0.isWhitespace }).count > 1 else { continue } // empty and one-word strings are usage-string-invalid
                if let problem = Self.problem(in: text) {
                    findings.append(finding("\(key) is \(problem): say which health data the app uses and why", at: usage.location, quote: usage.quote, target: target))
                } else if key == HealthKeys.update, let mismatch = writes.mismatch(with: text) {
                    findings.append(finding("\(key) \(mismatch)", at: usage.location, quote: usage.quote, target: target))
                }
            }
        }
        return findings
    }

    /// Verbs by which an update string says the app puts data into Health.
    static let writeVerbs = ["save", "saving", "write", "writing", "wrote", "written", "store", "storing", "log", "add", "sync", "export", "upload",
                             "record", "contribut", "send", "update"]

    /// What the app is seen to write, for judging the update string against it.
    struct WriteEvidence {
        /// Catalogued types the app asks to write (config and code), sorted.
        let shared: [String]
        /// Every request of the app is visible, resolved, and asks to write nothing, and nothing is saved.
        let writesNothing: Bool

        init(_ context: AuditContext) {
            shared = context.requestedShare.sorted()
            let requests = context.resolvedRequests
            writesNothing = shared.isEmpty && !requests.isEmpty && requests.allSatisfy { $0.share.isResolved && $0.share.names.isEmpty && $0.share.uncatalogued.isEmpty }
                && !context.usage.facts.contains { $0.kind == .write }
                && context.manifest.javaScriptSources.isEmpty && context.manifest.dartSources.isEmpty
        }

        /// Why the update string does not describe what the app writes, or nil.
        func mismatch(with text: String) -> String? {
            let lower = text.lowercased()
            if UsageStringVagueRule.writesNothing.contains(where: lower.contains) { return nil }
            let words = lower.split(whereSeparator: { !$0.isLetter })
            let claimsWriting = words.contains { word in UsageStringVagueRule.writeVerbs.contains { word.hasPrefix($0) } }
            if claimsWriting && writesNothing {
                return "says the app writes to Health, but it asks to write nothing and never saves: say that it saves nothing (the key is still required)"
            }
            if !claimsWriting && !shared.isEmpty {
                let names = shared.prefix(3).joined(separator: ", ") + (shared.count > 3 ? ", …" : "")
                return "does not say what the app saves, though it asks to write \(names): say what it saves to Health and why"
            }
            return nil
        }
    }

    /// Why `text` is vague, or nil when it reads as a real purpose string.
    static func problem(in text: String) -> String? {
        let lower = text.lowercased()
        if let placeholder = placeholders.first(where: { lower.contains($0) }) { return "a placeholder (\"\(placeholder)\")" }
        if writesNothing.contains(where: lower.contains) { return nil }
        let words = lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        if text.count < 20 || words.count < 4 { return "too short to explain a purpose" }
        if !words.contains(where: { word in dataWords.contains { word.hasPrefix($0) } }) { return "generic: it names no kind of health data" }
        return nil
    }
}

/// The same specific text for reading and writing: the sheet shows it twice and explains writing
/// no better than reading. A note: the string itself names real data (a vague one is reported as such).
struct UsageStringRepeatedRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-repeated", title: "Same usage string for reading and writing", severity: .note, questions: [],
        rationale: """
        When `NSHealthUpdateUsageDescription` repeats `NSHealthShareUsageDescription` word for word, the permission \
        sheet explains reading and writing with one sentence. If the text names real data and a real purpose, App \
        Review accepts it and people understand it, so this is only a note: say what the app saves, or that it saves \
        nothing, to make the sheet clearer. A repeated vague string is `usage-string-vague`.
        """,
        triggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodShare]),
            .healthApp(info: ["NSHealthShareUsageDescription": "Uses your walking speed from the Health app to give you more accurate arrival times.",
                              "NSHealthUpdateUsageDescription": "Uses your walking speed from the Health app to give you more accurate arrival times."]),
        ],
        nonTriggering: [
            .healthApp(),
            // Repeated but vague: that is usage-string-vague's finding, not a second one here.
            .healthApp(info: ["NSHealthShareUsageDescription": "We need access to your health data.", "NSHealthUpdateUsageDescription": "We need access to your health data."]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        let texts = [HealthKeys.share, HealthKeys.update].map { key in
            app.usageString(key)?.value.string.map { BuildVariables.expand($0, settings: app.config.buildSettings).text }
        }
        guard let share = texts[0], let update = texts[1], share == update, share.split(whereSeparator: \.isWhitespace).count > 1,
              UsageStringVagueRule.problem(in: share) == nil, let usage = app.usageString(HealthKeys.update) else { return [] }
        return [finding("\(HealthKeys.update) repeats \(HealthKeys.share) word for word: the sheet explains reading and writing with one "
                        + "sentence; say what the app saves (or that it saves nothing)", at: usage.location, quote: usage.quote, target: app.id)]
    }
}
