import Manifest

/// The Dart extractor of `HealthKitUsage`, for Flutter apps: each Dart library's calls on an
/// instance of its classes (`package:health`'s `Health()`, its description's `instanceTypes`),
/// classified into the same facts by its description's methods.
enum DartHealthKitFacts {
    static func extract(_ files: [JavaScriptFile], target: String) -> (facts: [HealthKitFact], calls: [JavaScriptHealthKitCall]) {
        var facts: [HealthKitFact] = []
        var calls: [JavaScriptHealthKitCall] = []
        for library in HealthKitLibrary.registry where library.language == .dart {
            let found = extract(files, target: target, library: library)
            facts += found.facts
            calls += found.calls
        }
        return (facts, calls)
    }

    private static func extract(_ files: [JavaScriptFile], target: String, library: HealthKitLibrary) -> (facts: [HealthKitFact], calls: [JavaScriptHealthKitCall]) {
        let constructors = library.instanceTypes
        let healthFiles = files.filter { file in file.tokens.contains { $0.kind == .string && library.modules.contains($0.value) } }
        guard !healthFiles.isEmpty else { return ([], []) }
        // Names bound to an instance anywhere in the app: `final health = Health();`, `Health _health;`.
        var receivers: Set<String> = []
        for file in healthFiles {
            let tokens = file.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && constructors.contains(tokens[index].text) {
                if index >= 2, tokens[index - 1].isPunctuator("="), tokens[index - 2].kind == .identifier { receivers.insert(tokens[index - 2].text) }
                if index + 2 < tokens.count, tokens[index + 1].kind == .identifier,
                   [";", "=", ",", ")"].contains(where: tokens[index + 2].isPunctuator) { receivers.insert(tokens[index + 1].text) }
            }
        }
        var facts: [HealthKitFact] = []
        var calls: [JavaScriptHealthKitCall] = []
        for (fileIndex, file) in files.enumerated() {
            let tokens = file.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && index >= 2 && tokens[index - 1].isPunctuator(".") {
                guard let paren = file.callParen(after: index), let kind = library.kind(of: tokens[index].text) else { continue }
                let names = file.chain(endingAt: index).names.dropLast()
                let onInstance = names.contains { receivers.contains($0) }
                // `Health().requestAuthorization(…)`: the receiver is a constructor call.
                let constructed = tokens[index - 2].isPunctuator(")") && file.partner[index - 2].map { $0 >= 1 && constructors.contains(tokens[$0 - 1].text) } == true
                // Health Connect's side of the app never runs on an iPhone.
                guard onInstance || constructed, !PlatformBranches.excludesIOS(index, in: file) else { continue }
                var fact = HealthKitFact(kind: kind, target: target, isExtension: false,
                                         evidence: Evidence(location: file.location(of: index), quote: file.quote(index)),
                                         site: .token(language: .dart, file: fileIndex, token: index))
                fact.library = library
                facts.append(fact)
                calls.append(JavaScriptHealthKitCall(file: fileIndex, token: index, paren: paren, method: tokens[index].text, kind: kind,
                                                     library: library))
            }
        }
        return (facts, calls)
    }
}
