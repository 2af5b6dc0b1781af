import Manifest

/// The app's files could not be read (a project folder without its `project.pbxproj`, a property
/// list that does not parse): nothing of it was audited, which must show as loudly as a finding.
/// Only a run that isolates apps (`check` on discovered apps) keeps such an app; elsewhere the
/// problem stops the run.
struct AppNotLoadedRule: Rule {
    static let description = RuleDescription(
        id: "app-not-loaded", title: "The app could not be loaded, so it was not audited", severity: .error,
        questions: ReviewQuestion.allCases,
        rationale: """
        An audit that skips an app without saying so reads as a clean bill of health. When an app's project or \
        manifests cannot be read — an `.xcodeproj` folder committed without its `project.pbxproj`, an Info.plist \
        that does not parse, a file outside the repository — the app is kept in the report with this finding, \
        each of its six answers is "cannot tell", its verdict is "incomplete", and the run exits with status 2 \
        after every report is written. The other apps of the repository are audited as usual. Fix the file the \
        finding cites, or commit what the toolchain generates.
        """,
        triggering: [
            // An Info.plist that stops half-way: the app is reported, not audited.
            .healthApp(["Info.plist": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleName</key>\n"]),
        ],
        nonTriggering: [
            .healthApp(["Sources/Access.swift": "import HealthKit\n\nlet available = HKHealthStore.isHealthDataAvailable()\n"]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.manifest.loadProblems.map { problem in
            finding("\(context.manifest.name) could not be loaded and was not audited: \(problem.message)",
                    at: problem.location, quote: Clipped.text(problem.message, limit: Clipped.quoteLimit), target: context.manifest.id)
        }
    }
}
