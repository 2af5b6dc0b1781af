import Foundation
import Manifest

/// A small app, as files, that a rule must (or must not) flag. Examples are materialized on disk
/// and read by the real loaders, so they exercise the same path as a real project.
///
/// Conventional paths: `Info.plist`, `App.entitlements`, `PrivacyInfo.xcprivacy`, `*.lproj/*.strings`,
/// `InfoPlist.xcstrings`, Swift files under `Sources/`; a widget under `Widget/` (`Widget/Info.plist`,
/// `Widget/Widget.entitlements`, `Widget/Sources/*.swift`), a watch app under `Watch/` the same way.
/// Swift files under `Packages/` are dependency code the app builds (listed as `extra_sources`).
/// Files under `js/` make a React Native
/// app: they are written at the app's root without the prefix and the config gets `kind: react-native`.
///
/// In a triggering example, `↓` marks where a finding must be (SwiftLint's convention): the
/// marker is removed from the file, and its line and column are kept in `markers`.
public struct RuleExample: Sendable {
    /// Where an example's finding must be: the file (as written in `files`), line and column.
    public struct Marker: Sendable, Hashable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var column: Int
        public var description: String { "\(file):\(line):\(column)" }
    }

    public var files: [String: String]
    public var markers: [Marker] = []
    public var binaryFiles: [String: [UInt8]] = [:]
    public var read: [String]
    public var share: [String]
    public var buildSettings: [String: String]
    /// Whether the app is given its Swift sources; false models a manifest-only audit.
    public var scanSources: Bool

    public init(files: [String: String], read: [String] = [], share: [String] = [], buildSettings: [String: String] = [:],
                scanSources: Bool = true) {
        self.files = files.mapValues { $0.replacingOccurrences(of: Self.marker, with: "") }
        markers = files.sorted { $0.key < $1.key }.flatMap { Self.markers(in: $0.value, file: $0.key) }
        self.read = read; self.share = share; self.buildSettings = buildSettings; self.scanSources = scanSources
    }

    static let marker = "↓"

    /// Line and column (in characters, from 1) of each marker, as if the markers were not there.
    static func markers(in text: String, file: String) -> [Marker] {
        var result: [Marker] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var column = 1
            for character in line {
                if String(character) == marker { result.append(Marker(file: file, line: index + 1, column: column)) } else { column += 1 }
            }
        }
        return result
    }

    public var isReactNative: Bool { files.keys.contains { $0.hasPrefix("js/") } }
}

// MARK: - Builders that keep examples short

extension RuleExample {
    /// An XML plist as Xcode writes it, from ordered key/value pairs.
    public static func plist(_ entries: KeyValuePairs<String, Any>) -> String {
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>

        """
        for (key, value) in entries { xml += "\t<key>\(escape(key))</key>\n" + render(value, indent: "\t") }
        return xml + "</dict>\n</plist>\n"
    }

    private static func render(_ value: Any, indent: String) -> String {
        switch value {
        case let b as Bool: return indent + (b ? "<true/>" : "<false/>") + "\n"
        case let i as Int: return indent + "<integer>\(i)</integer>\n"
        case let s as String: return indent + "<string>\(escape(s))</string>\n"
        case let a as [Any]:
            if a.isEmpty { return indent + "<array/>\n" }
            return indent + "<array>\n" + a.map { render($0, indent: indent + "\t") }.joined() + indent + "</array>\n"
        case let d as KeyValuePairs<String, Any>:
            return indent + "<dict>\n" + d.map { indent + "\t<key>\(escape($0.key))</key>\n" + render($0.value, indent: indent + "\t") }.joined()
                + indent + "</dict>\n"
        default: return indent + "<string>\(escape(String(describing: value)))</string>\n"
        }
    }

    private static func escape(_ s: String) -> String { XMLText.escape(s) }

    public static let goodShare = "Steady reads your steps, heart rate and sleep to chart your daily recovery."
    public static let goodUpdate = "Steady saves the workouts and mindful minutes you log so they appear in Health."
    public static let healthKitEntitlement = plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": [Any]()])

    /// A well-formed HealthKit app manifest, to which an example adds or overrides files.
    public static func healthApp(_ files: [String: String] = [:], info: KeyValuePairs<String, Any>? = nil,
                                 read: [String] = ["stepCount", "heartRate"], share: [String] = ["workout"],
                                 buildSettings: [String: String] = [:], scanSources: Bool = true) -> RuleExample {
        var all: [String: String] = [
            "Info.plist": plist(info ?? ["CFBundleName": "Steady", "NSHealthShareUsageDescription": goodShare, "NSHealthUpdateUsageDescription": goodUpdate]),
            "App.entitlements": healthKitEntitlement,
        ]
        all.merge(files) { _, new in new }
        return RuleExample(files: all.filter { !$0.value.isEmpty }, read: read, share: share, buildSettings: buildSettings, scanSources: scanSources)
    }

    /// A React Native app with `healthApp`'s manifests and the given `js/…` files; the requested
    /// types come from its `initHealthKit` calls, not the config.
    public static func reactNative(_ files: [String: String], read: [String] = [], share: [String] = [],
                                   buildSettings: [String: String] = [:]) -> RuleExample {
        healthApp(files, read: read, share: share, buildSettings: buildSettings)
    }

    /// A Flutter app on `package:health`: `healthApp`'s iOS manifests, a `pubspec.yaml` and the given
    /// `lib/…` Dart files beside it (found like a real app's `lib/`).
    public static func flutter(_ files: [String: String], buildSettings: [String: String] = [:]) -> RuleExample {
        var all = files
        all["pubspec.yaml"] = "name: example\ndependencies:\n  flutter:\n    sdk: flutter\n  health: ^13.1.0\n"
        return healthApp(all, read: [], share: [], buildSettings: buildSettings)
    }
}

extension RuleExample {
    /// One file as a reader is shown it: the finding's lines marked (from the `↓` markers).
    public struct ShownFile: Sendable {
        public var path: String
        public var text: String
        public var markedLines: Set<Int>
    }

    static let codeExtensions: Set<String> = ["swift", "js", "jsx", "ts", "tsx", "mjs", "cjs", "dart"]

    /// The files a reader needs, not the scaffolding every example carries: the files holding the
    /// markers; for an unmarked example of a rule about code, its code files; for a rule about
    /// manifests (whose examples cannot carry markers), every file — the plist is the point.
    public func shownFiles(aboutCode: Bool) -> [ShownFile] {
        let marked = Dictionary(grouping: markers, by: \.file).mapValues { Set($0.map(\.line)) }
        let isCode = { (path: String) in Self.codeExtensions.contains((path as NSString).pathExtension) }
        let paths: [String]
        if !marked.isEmpty {
            paths = marked.keys.sorted()
        } else if aboutCode, files.keys.contains(where: isCode) {
            paths = files.keys.filter(isCode).sorted()
        } else {
            paths = files.keys.sorted()
        }
        return paths.map { ShownFile(path: $0, text: files[$0] ?? "", markedLines: marked[$0] ?? []) }
    }
}

extension RuleDescription {
    /// Whether a rule finds in code: its triggering examples (built once by the caller, as
    /// `triggering` builds them anew on every call) mark the place in a code file.
    public static func isAboutCode(_ triggering: [RuleExample]) -> Bool {
        triggering.contains { example in example.markers.contains { RuleExample.codeExtensions.contains(($0.file as NSString).pathExtension) } }
    }

    public var references: [RuleReference] { RuleReferences.of(self) }
}
