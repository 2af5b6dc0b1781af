import Checklist
import Manifest

/// What an app's manifests declare, as the app page lists it under "What the manifests declare":
/// read from the manifest by a source build, or from a result's `declared` block. Paths are
/// relative to the site folder.
public struct Declarations: Sendable, Hashable {
    /// One line of the usage-strings list: a key's value, its absence, or one of its translations.
    public enum UsageLine: Sendable, Hashable {
        /// `value` nil: not a string (`typeName` says what it is).
        case declared(key: String, origin: String, location: FileLocation, value: String?, typeName: String)
        case absent(key: String)
        /// `source`: the strings file's encoding, or "string catalog".
        case translated(key: String, locale: String, source: String, value: String)
    }

    public struct Target: Sendable, Hashable {
        public var id: String
        public var name: String
        public var extensionPoint: String?
        public var swiftFiles: Int
        /// Only for a React Native app's main target.
        public var javaScriptFiles: Int?
        public var infoPlist: InfoPlist?

        public struct InfoPlist: Sendable, Hashable {
            public var path: String
            /// `XML`, `binary`, … as the page names it.
            public var format: String
            public init(path: String, format: String) { self.path = path; self.format = format }
        }

        public init(id: String, name: String, extensionPoint: String?, swiftFiles: Int, javaScriptFiles: Int?, infoPlist: InfoPlist?) {
            self.id = id; self.name = name; self.extensionPoint = extensionPoint; self.swiftFiles = swiftFiles
            self.javaScriptFiles = javaScriptFiles; self.infoPlist = infoPlist
        }
    }

    public struct Dependency: Sendable, Hashable {
        public var package: String
        public var ecosystem: String
        public var version: String?
        public var isDirect: Bool?
        public var location: FileLocation
        public var quote: String
        public var writes: Bool, workoutSession: Bool, clinical: Bool, isSDK: Bool

        public init(package: String, ecosystem: String, version: String?, isDirect: Bool?, location: FileLocation, quote: String,
                    writes: Bool, workoutSession: Bool, clinical: Bool, isSDK: Bool) {
            self.package = package; self.ecosystem = ecosystem; self.version = version; self.isDirect = isDirect
            self.location = location; self.quote = quote
            self.writes = writes; self.workoutSession = workoutSession; self.clinical = clinical; self.isSDK = isSDK
        }
    }

    /// One `initHealthKit` call of a React Native app: each react-native-health constant and the type it maps to.
    public struct NativeRequest: Sendable, Hashable {
        public struct Permission: Sendable, Hashable {
            public var constant: String
            public var type: String?
            public init(constant: String, type: String?) { self.constant = constant; self.type = type }
        }
        public var location: FileLocation
        public var read: [Permission]
        public var write: [Permission]
        public init(location: FileLocation, read: [Permission], write: [Permission]) { self.location = location; self.read = read; self.write = write }
    }

    public var usage: [UsageLine] = []
    /// Each key with its value summarised; nil when no entitlements file is configured.
    public var entitlements: [Entitlement]?
    public var dependencies: [Dependency] = []
    public var targets: [Target] = []
    public var discovery: [DiscoveredFact] = []
    public var reactNativeRequests: [NativeRequest] = []
    public var inputFiles: [String] = []
    /// What the app is, as its main target's Info.plist and build settings say.
    public var identity = Identity()

    /// Bundle id, version and minimum iOS: nil when the manifest does not say.
    public struct Identity: Sendable, Hashable {
        public var bundleID: String?
        public var version: String?
        public var build: String?
        public var minimumOS: String?
        public init(bundleID: String? = nil, version: String? = nil, build: String? = nil, minimumOS: String? = nil) {
            self.bundleID = bundleID; self.version = version; self.build = build; self.minimumOS = minimumOS
        }
    }

    public struct Entitlement: Sendable, Hashable {
        public var key: String
        public var value: String
        public init(key: String, value: String) { self.key = key; self.value = value }
    }

    public init() {}

    /// The usage keys the page lists, in this order.
    public static let usageKeys = ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription", "NSHealthClinicalHealthRecordsShareUsageDescription"]
}

extension Declarations {
    /// From the audited manifest, as a source build reads it.
    public init(manifest app: AppManifest) {
        self.init()
        for key in Self.usageKeys {
            if let value = app.usageString(key) {
                usage.append(.declared(key: key, origin: value.origin.rawValue, location: value.location, value: value.value.string, typeName: value.value.typeName))
            } else if !app.config.kind.traits.generatesInfoPlist || app.main.infoPlist != nil {
                usage.append(.absent(key: key))
            }
            for file in app.infoPlistStrings {
                if let entry = file.entry(key) { usage.append(.translated(key: key, locale: file.locale, source: file.encoding, value: entry.value)) }
            }
            for entry in app.stringCatalog?.localizations.filter({ $0.key == key }) ?? [] {
                usage.append(.translated(key: key, locale: entry.locale, source: "string catalog", value: entry.value))
            }
        }
        entitlements = app.main.entitlements.map { file in file.root.keys.sorted().map { Entitlement(key: $0, value: file.root[$0]!.summary) } }
        dependencies = app.healthKitDependencies.map { dependency in
            Dependency(package: dependency.package, ecosystem: dependency.ecosystem.rawValue, version: dependency.version, isDirect: dependency.isDirect,
                       location: dependency.location, quote: dependency.quote, writes: dependency.known.writes,
                       workoutSession: dependency.known.workoutSession, clinical: dependency.known.clinical, isSDK: dependency.isSDK)
        }
        targets = app.targets.map { target in
            Target(id: target.id, name: target.name, extensionPoint: target.extensionPoint, swiftFiles: target.sources.count,
                   javaScriptFiles: !target.isExtension && app.config.kind.traits.countsScriptFiles ? app.javaScriptSources.count : nil,
                   infoPlist: target.infoPlist.map { .init(path: $0.path, format: $0.format.rawValue) })
        }
        discovery = app.discovery
        reactNativeRequests = (app.reactNativeHealth?.requests ?? []).map { request in
            NativeRequest(location: request.location, read: request.read.map { .init(constant: $0.constant, type: $0.type) },
                          write: request.write.map { .init(constant: $0.constant, type: $0.type) })
        }
        inputFiles = app.inputFiles
        identity = Self.identity(app)
    }

    /// An Info.plist value with its `$(SETTING)` / `${SETTING}` references filled from the build
    /// settings, else the build setting that Xcode would use.
    static func identity(_ app: AppManifest) -> Identity {
        let settings = app.config.buildSettings
        func value(_ key: String, setting: String) -> String? {
            var text = app.main.infoPlist?[key]?.string
            if var current = text {
                for (name, replacement) in settings {
                    current = current.replacingOccurrences(of: "$(\(name))", with: replacement).replacingOccurrences(of: "${\(name)}", with: replacement)
                }
                text = current
            }
            if text == nil || text!.contains("$(") || text!.contains("${") { return settings[setting] ?? text }
            return text
        }
        return Identity(bundleID: value("CFBundleIdentifier", setting: "PRODUCT_BUNDLE_IDENTIFIER"),
                        version: value("CFBundleShortVersionString", setting: "MARKETING_VERSION"),
                        build: value("CFBundleVersion", setting: "CURRENT_PROJECT_VERSION"),
                        minimumOS: value("MinimumOSVersion", setting: "IPHONEOS_DEPLOYMENT_TARGET"))
    }

    /// The page's section, as Markdown; every value from the app is escaped or code-quoted.
    func markdown(requestedRead: [String], requestedShare: [String],
                  unresolvedRead: UnresolvedRequests = UnresolvedRequests(), unresolvedShare: UnresolvedRequests = UnresolvedRequests()) -> String {
        var md = MarkdownWriter()
        md.heading(2, "What the manifests declare")
        md.heading(3, "Usage strings")
        md.bullets(usage.map { line in
            switch line {
            case .declared(let key, let origin, let location, let value, let typeName):
                let text = value.map { MarkdownText.code($0) } ?? "(\(typeName))"
                return "\(MarkdownText.code(key)) (\(origin), \(MarkdownText.escape(location.description))): \(text)"
            case .absent(let key):
                return "\(MarkdownText.code(key)): *absent*"
            case .translated(let key, let locale, let source, let value):
                return "\(MarkdownText.code(key)) in \(MarkdownText.escape(locale)) (\(MarkdownText.escape(source))): \(MarkdownText.code(value))"
            }
        })
        md.heading(3, "Entitlements")
        if let entitlements {
            md.bullets(entitlements.map { "\(MarkdownText.code($0.key)) = \(MarkdownText.code($0.value))" })
        } else {
            md.paragraph("No entitlements file is configured.")
        }
        md.heading(3, "Requested types")
        md.bullets([
            "Read: " + UnresolvedRequests.describe(requestedRead, unresolved: unresolvedRead, name: MarkdownText.code, place: MarkdownText.code),
            "Share (write): " + UnresolvedRequests.describe(requestedShare, unresolved: unresolvedShare, name: MarkdownText.code, place: MarkdownText.code),
        ])
        if !dependencies.isEmpty {
            md.heading(3, "HealthKit dependencies")
            md.paragraph("Packages known to link HealthKit, from the app's manifests and lockfiles.")
            md.bullets(dependencies.map { dependency in
                let does = [(dependency.writes, "writes"), (dependency.workoutSession, "runs workout sessions"),
                            (dependency.clinical, "references clinical records")].filter(\.0).map(\.1)
                return MarkdownText.code(dependency.package) + " (" + [dependency.ecosystem, dependency.version, dependency.isDirect == false ? "indirect" : nil]
                    .compactMap { $0 }.map(MarkdownText.escape).joined(separator: ", ") + ") — " + MarkdownText.code(dependency.location.description)
                    + (does.isEmpty ? "" : " — " + does.joined(separator: ", "))
            })
        }
        md.heading(3, "Targets")
        md.bullets(targets.map { target in
            var line = "**\(MarkdownText.escape(target.name))** (\(MarkdownText.code(target.id))"
            if let point = target.extensionPoint { line += ", extension point \(MarkdownText.code(point))" }
            line += "): \(Plural.count(target.swiftFiles, "Swift file")) scanned"
            if let files = target.javaScriptFiles { line += ", \(Plural.count(files, "JavaScript/TypeScript file")) scanned" }
            if let plist = target.infoPlist { line += ", Info.plist \(MarkdownText.escape(plist.path)) (\(MarkdownText.escape(plist.format)))" }
            return line
        })
        if !discovery.isEmpty || !reactNativeRequests.isEmpty {
            md.heading(3, "Discovered from the project")
            var facts = discovery.map { fact in
                (fact.isNote ? "**Note:** " : "") + MarkdownText.escape(fact.text) + " — " + MarkdownText.escape(fact.origin)
                    + (fact.location.map { " (" + MarkdownText.code($0.description) + ")" } ?? "")
            }
            for request in reactNativeRequests {
                func list(_ permissions: [NativeRequest.Permission]) -> String {
                    permissions.isEmpty ? "nothing" : permissions.map { MarkdownText.code($0.constant) + " → " + ($0.type.map(MarkdownText.code) ?? "*not modelled*") }
                        .joined(separator: ", ")
                }
                facts.append("initHealthKit asks to read \(list(request.read)) and to write \(list(request.write)) (\(MarkdownText.code(request.location.description)))")
            }
            md.bullets(facts)
        }
        md.heading(3, "Input files")
        md.bullets(inputFiles.map { MarkdownText.code($0) })
        return md.text
    }
}
