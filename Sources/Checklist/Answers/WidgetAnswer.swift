import Foundation
import Manifest

/// Question 5: do widgets avoid calling `requestAuthorization`? Not applicable only when the app has
/// no widget or other app-extension target (a watch app is an application: it asks for itself).
/// With extensions, yes cites each extension that was read — its code, or entitlements without
/// HealthKit, which cannot ask — and no cites the extension or widget provider that asks.
struct WidgetAnswer {
    let facts: AnswerFacts

    func answer() -> Answer {
        let manifest = facts.context.manifest
        let extensions = manifest.extensions.filter(\.isExtension)
        // A ClockKit complication runs in its watch app's process, which asks for itself: only WidgetKit
        // providers stand for an extension (one the audit may not have found, compiling shared code).
        // When the project was read, its targets are known: a provider compiled only into the app (a Live
        // Activity's widget left in the app target, which no extension builds) stands for no extension.
        let targetsKnown = manifest.config.project != nil || manifest.config.xcodeGenSpec != nil || manifest.config.tuistManifest != nil
        let compiledByExtensions = Set(manifest.extensions.filter(\.isExtension).flatMap { $0.sources.map(\.path) })
        let appFiles = Set(manifest.targets.filter { !$0.isExtension }.flatMap { $0.sources.map(\.path) }).subtracting(compiledByExtensions)
        let providers = facts.usage.widgetProviders.filter { !$0.isComplicationDataSource && !(targetsKnown && appFiles.contains($0.evidence.location.file)) }
        // A WatchKit extension (watchOS before 7's two-target watch app) is an app-extension target:
        // the watch app's own screens run in it and may ask, its complications are what the question is about.
        let watchKitExtensions = manifest.targets.filter { $0.kind == .watchApp && $0.extensionPoint == Self.watchKitExtensionPoint }
        if let asking = facts.fromFindings(.widgetsDoNotRequest) { return asking }
        if extensions.isEmpty && providers.isEmpty && watchKitExtensions.isEmpty {
            let watch = manifest.targets.filter { $0.kind == .watchApp }.map { "`\($0.id)`" }
            let complications = facts.usage.widgetProviders.filter(\.isComplicationDataSource)
            return Answer(question: .widgetsDoNotRequest, status: .notApplicable, claims: [
                .stating("the app has no widget or other app-extension target"
                         + (watch.isEmpty ? "" : " (its watch app \(watch.joined(separator: ", ")) is an application, which asks for itself)")),
            ] + (complications.isEmpty ? [] : [
                .citing("its ClockKit complications run in the watch app's own process", complications.map(\.evidence), limit: 2),
            ]))
        }
        var read: [Claim] = []
        var unread: [String] = []
        for target in watchKitExtensions {
            let files = Set(target.sources.map(\.path))
            let complications = facts.usage.widgetProviders.filter { $0.isComplicationDataSource && files.contains($0.evidence.location.file) }
            guard let plist = target.infoPlist else { continue }
            let complicationFiles = Set(complications.map(\.evidence.location.file))
            let asking = facts.shipping(.authorizationRequest).filter { complicationFiles.contains($0.evidence.location.file) }
            if !asking.isEmpty {
                return Answer(question: .widgetsDoNotRequest, status: .no, claims: [
                    .citing("the complication code of WatchKit extension `\(target.id)` asks for authorization, which a complication cannot present",
                            asking.map(\.evidence), limit: 2),
                ])
            }
            let shown = Evidence(location: plist.location(of: "NSExtension"), quote: plist.quote("NSExtension"))
            read.append(complications.isEmpty
                ? .citing("WatchKit extension `\(target.id)` is an app-extension target with no complication or widget provider; its screens are the watch app's, which asks for itself", [shown], limit: 1)
                : .citing("WatchKit extension `\(target.id)`'s complications \(complications.prefix(3).map { "`\($0.type)`" }.joined(separator: ", ")) make no request "
                          + "(its screens are the watch app's, which asks for itself)", [shown] + complications.map(\.evidence), limit: 3))
        }
        for target in extensions {
            if !target.sources.isEmpty {
                read.append(.citing("extension `\(target.id)`'s \(Plural.count(target.sources.count, "Swift file")) \(target.sources.count == 1 ? "makes" : "make") no request", [evidence(for: target)].compactMap { $0 }, limit: 1))
            } else if let entitlements = target.entitlements, entitlements[HealthKeys.entitlement]?.bool != true {
                read.append(.citing("extension `\(target.id)` has no code of its own in the audit and no HealthKit entitlement, so it cannot ask",
                                    [Evidence(location: entitlements.location(of: nil), quote: entitlements.quote(nil))], limit: 1))
            } else {
                unread.append("`\(target.id)`")
            }
        }
        // Widget providers compiled outside the extension targets the audit found (shared code, or a target it did not discover).
        let extensionFiles = Set(extensions.flatMap { $0.sources.map(\.path) })
        let outside = providers.filter { !extensionFiles.contains($0.evidence.location.file) }
        if !outside.isEmpty {
            read.append(.citing("the widget providers \(outside.prefix(3).map { "`\($0.type)`" }.joined(separator: ", ")) make no request",
                                outside.map(\.evidence), limit: 3))
        }
        if read.isEmpty {
            return Answer(question: .widgetsDoNotRequest, status: .cannotTell, claims: [
                .stating("the extension targets \(unread.joined(separator: ", ")) have no code the audit could read (no sources found or configured), "
                         + "so whether they ask cannot be seen"),
            ])
        }
        if !unread.isEmpty {
            read.append(.stating("\(unread.joined(separator: ", ")) \(unread.count == 1 ? "has" : "have") no code in the audit (none found or configured)"))
        }
        return Answer(question: .widgetsDoNotRequest, status: .yes, claims: read)
    }

    /// Where an extension is shown to be one: its `NSExtension` key, else its widget provider, else its first file.
    private func evidence(for target: TargetManifest) -> Evidence? {
        if let plist = target.infoPlist, plist["NSExtension"] != nil {
            return Evidence(location: plist.location(of: "NSExtension"), quote: plist.quote("NSExtension"))
        }
        let files = Set(target.sources.map(\.path))
        if let provider = facts.usage.widgetProviders.first(where: { files.contains($0.evidence.location.file) }) { return provider.evidence }
        guard let file = target.sources.first else { return nil }
        let firstLine = file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .first { !$0.element.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let first = firstLine else { return nil }
        return Evidence(location: FileLocation(file: file.path, line: first.offset + 1), quote: first.element.trimmingCharacters(in: .whitespaces))
    }

    static let watchKitExtensionPoint = "com.apple.watchkit"
}
