import Checklist
import Manifest

/// Reads one app of a result into the page model, checking what the pages rely on.
struct AppReader {
    let paths: ResultPaths
    /// The version of healthaudit that wrote the result, for the message about an unknown rule.
    let writer: String

    func app(_ node: JSONNode) throws(ResultFormatError) -> AppReport {
        let idNode = try node.field("id")
        let id = try idNode.string()
        guard Identifier.isValid(id) else { throw idNode.problem("'\(id)' is not an app id: it must match [a-z0-9][a-z0-9-]* (at most 64 characters), as it becomes a folder name") }
        let requested = try node.field("requested")
        // Results written before `unresolvedRequests` existed carry none.
        var unresolvedRead: UnresolvedRequests?, unresolvedShare: UnresolvedRequests?
        if let unresolved = try node.optionalField("unresolvedRequests") {
            unresolvedRead = UnresolvedRequests(try unresolved.field("read").strings())
            unresolvedShare = UnresolvedRequests(try unresolved.field("share").strings())
        }
        let answers = try node.field("answers").map(answer)
        guard answers.count <= ReviewQuestion.allCases.count else { throw try node.field("answers").problem("more than six answers") }
        var declared = try declarations(node.field("declared"))
        declared.discovery = try node.field("discovery").map(discovered)
        declared.dependencies = try node.field("dependencies").map(dependency)
        return AppReport(
            id: id, name: try node.field("name").string(), kind: try node.field("kind").oneOf(AppKind.self), answers: answers,
            findings: try node.field("findings").map(finding), requestedRead: try requested.field("read").strings(),
            requestedShare: try requested.field("share").strings(),
            unresolvedRead: unresolvedRead ?? UnresolvedRequests(), unresolvedShare: unresolvedShare ?? UnresolvedRequests(), notes: try node.field("notes").strings(), declared: declared,
            simulation: try node.optionalField("simulation").map(SimulationJSON.read), sourceLinks: nil)
    }

    private func rule(_ node: JSONNode) throws(ResultFormatError) -> String {
        let id = try node.string()
        guard RuleCatalog.rule(id: id) != nil else {
            throw node.problem("rule '\(id)' is not known to healthaudit \(ToolInfo.currentVersion) (the result was written by \(writer)); assemble results with the version that wrote them, or a later one")
        }
        return id
    }

    private func answer(_ node: JSONNode) throws(ResultFormatError) -> Answer {
        let number = try node.field("question")
        guard let question = ReviewQuestion(rawValue: try number.int(in: 1...ReviewQuestion.allCases.count)) else { throw number.problem("questions are numbered 1 to 6") }
        let evidence = try node.field("evidence").map { item throws(ResultFormatError) in
            Evidence(location: try paths.location(item.field("location")), quote: try item.field("quote").string())
        }
        return Answer(question: question, status: try node.field("status").oneOf(Answer.Status.self), reason: try node.field("reason").string(),
                      evidence: evidence, ruleIDs: try node.field("ruleIds").map(rule))
    }

    private func finding(_ node: JSONNode) throws(ResultFormatError) -> Finding {
        var finding = Finding(ruleID: try rule(node.field("ruleId")), severity: try node.field("severity").oneOf(Severity.self),
                              message: try node.field("message").string(), location: try paths.location(node.field("location")),
                              quote: try node.field("quote").string(), target: try node.field("target").string())
        if let around = try node.optionalField("context") {
            finding.context = QuoteContext(before: try around.field("before").strings(), after: try around.field("after").strings(),
                                           indent: try around.field("indent").string())
        }
        if let suppressed = try node.optionalField("suppressed") {
            finding.suppression = Suppression(origin: try suppressed.field("origin").oneOf(Suppression.Origin.self),
                                              reason: try suppressed.field("reason").string(), location: try paths.location(suppressed.field("location")))
        }
        return finding
    }

    private func discovered(_ node: JSONNode) throws(ResultFormatError) -> DiscoveredFact {
        DiscoveredFact(try node.field("text").string(), origin: try node.field("origin").string(),
                       location: try node.optionalField("location").map(paths.location), isNote: try node.field("note").bool())
    }

    private func dependency(_ node: JSONNode) throws(ResultFormatError) -> Declarations.Dependency {
        Declarations.Dependency(
            package: try node.field("package").string(), ecosystem: try node.field("ecosystem").oneOf(HealthKitPackage.Ecosystem.self).rawValue,
            version: try node.optionalField("version")?.string(), isDirect: try node.optionalField("direct")?.bool(),
            location: try paths.location(node.field("location")), quote: try node.field("quote").string(),
            writes: try node.field("writes").bool(), workoutSession: try node.field("workoutSession").bool(),
            clinical: try node.field("clinical").bool(), isSDK: try node.field("sdk").bool())
    }

    private func declarations(_ node: JSONNode) throws(ResultFormatError) -> Declarations {
        var declared = Declarations()
        declared.usage = try node.field("usageStrings").map(usage)
        declared.entitlements = try node.optionalField("entitlements")?.map { row throws(ResultFormatError) in
            Declarations.Entitlement(key: try row.field("key").string(), value: try row.field("value").string())
        }
        declared.targets = try node.field("targets").map { target throws(ResultFormatError) in
            Declarations.Target(
                id: try target.field("id").string(), name: try target.field("name").string(),
                extensionPoint: try target.optionalField("extensionPoint")?.string(), swiftFiles: try target.field("swiftFiles").int(in: ResultRanges.fileCount),
                javaScriptFiles: try target.optionalField("javaScriptFiles")?.int(in: ResultRanges.fileCount),
                infoPlist: try target.optionalField("infoPlist").map { plist throws(ResultFormatError) in
                    .init(path: paths.siteRelative(try plist.field("path").string()), format: try plist.field("format").string())
                })
        }
        declared.reactNativeRequests = try node.field("reactNativeRequests").map { request throws(ResultFormatError) in
            func permissions(_ list: JSONNode) throws(ResultFormatError) -> [Declarations.NativeRequest.Permission] {
                try list.map { item throws(ResultFormatError) in .init(constant: try item.field("constant").string(), type: try item.optionalField("type")?.string()) }
            }
            return Declarations.NativeRequest(location: try paths.location(request.field("location")),
                                              read: try permissions(request.field("read")), write: try permissions(request.field("write")))
        }
        declared.inputFiles = try node.field("inputFiles").strings().map(paths.siteRelative)
        // Optional: results of earlier versions have none.
        if let identity = try node.optionalField("identity") {
            declared.identity = Declarations.Identity(bundleID: try identity.optionalField("bundleId")?.string(), version: try identity.optionalField("version")?.string(),
                                                      build: try identity.optionalField("build")?.string(), minimumOS: try identity.optionalField("minimumOS")?.string())
        }
        return declared
    }

    private func usage(_ node: JSONNode) throws(ResultFormatError) -> Declarations.UsageLine {
        let key = try node.field("key").string()
        let origin = try node.field("origin")
        switch try origin.string() {
        case "absent":
            return .absent(key: key)
        case "translation":
            return .translated(key: key, locale: try node.field("locale").string(), source: try node.field("source").string(), value: try node.field("value").string())
        case let declared where UsageString.Origin(rawValue: declared) != nil:
            return .declared(key: key, origin: declared, location: try paths.location(node.field("location")),
                             value: try node.optionalField("value")?.string(), typeName: try node.field("valueType").string())
        case let other:
            throw origin.problem("'\(other)' is not a usage string's origin (Info.plist, build setting, Expo config, translation, absent)")
        }
    }
}
