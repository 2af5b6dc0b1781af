import ProjectDescription

// A Tuist manifest in the literal forms discovery reads: the fuzz target's seed.
let appTarget = Target.target(
    name: "Fuzz",
    destinations: .iOS,
    product: .app,
    bundleId: "org.example.fuzz",
    deploymentTargets: .iOS("17.0"),
    infoPlist: .extendingDefault(with: [
        "NSHealthShareUsageDescription": "Fuzz reads your steps to chart them daily.",
        "NSHealthUpdateUsageDescription": .string("Fuzz saves the workouts you log."),
        "UIBackgroundModes": .array([.string("processing")]),
    ]),
    sources: ["App/Sources/**"],
    entitlements: .dictionary(["com.apple.developer.healthkit": .boolean(true)]),
    settings: .settings(base: ["SWIFT_VERSION": "6.0", "PRODUCT_NAME": "Fuzz"])
)

let widget = Target.target(
    name: "FuzzWidget",
    destinations: .iOS,
    product: .appExtension,
    bundleId: "org.example.fuzz.widget",
    infoPlist: .file(path: "Widget/Info.plist"),
    sources: .paths(["Widget/Sources/**"])
)

let project = Project(
    name: "Fuzz",
    targets: [appTarget, widget]
)
