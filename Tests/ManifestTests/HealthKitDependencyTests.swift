import Manifest
import TestSupport
import XCTest

/// Packages that link HealthKit, read from each toolchain's manifest and lockfile as those tools
/// write them: one row per package, the manifest's line when it names it, the lockfile's version.
final class HealthKitDependencyTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    func dependencies(_ files: [String: String], root: String = "app") throws -> [String] {
        site = try TestSite(files: files.merging(["healthaudit.yml": "title: T\napps: []\n"]) { a, _ in a })
        let found = HealthKitDependencies.find(root: site.site + "/" + root, site: site.site, display: { String($0.dropFirst(self.site.site.count + 1)) },
                                               fileSystem: LocalFileSystem())
        return found.map { dependency in
            let flags = [(dependency.known.writes, "w"), (dependency.known.workoutSession, "s"), (dependency.known.clinical, "c"), (dependency.isSDK, "k")]
                .filter(\.0).map(\.1).joined()
            return "\(dependency.ecosystem.rawValue) \(dependency.package) \(dependency.version ?? "-") \(dependency.isDirect.map { $0 ? "direct" : "indirect" } ?? "unknown") "
                + "\(dependency.location) \(flags)"
        }
    }

    func testCocoaPodsLockWithSubspecsAndTheDependenciesSection() throws {
        XCTAssertEqual(try dependencies(["app/Podfile.lock": """
            PODS:
              - Alamofire (5.9.1)
              - "ResearchKit/ResearchKitCore (3.0.1)"
              - ResearchKit/ResearchKitUI (3.0.1):
                - ResearchKit/ResearchKitCore
              - RNAppleHealthKit (1.7.0):
                - React

            DEPENDENCIES:
              - Alamofire
              - ResearchKit/ResearchKitUI (~> 3.0)

            COCOAPODS: 1.15.2
            """]), [
            "CocoaPods ResearchKit 3.0.1 direct app/Podfile.lock:3 ck",
            "CocoaPods RNAppleHealthKit 1.7.0 indirect app/Podfile.lock:6 wc",
        ])
    }

    func testPackageResolvedInsideTheProjectBundleV2AndV1() throws {
        XCTAssertEqual(try dependencies(["app/Steady.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": """
            {
              "pins" : [
                {
                  "identity" : "spezihealthkit",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/StanfordSpezi/SpeziHealthKit.git",
                  "state" : {
                    "revision" : "5f1c0c8e",
                    "version" : "1.1.2"
                  }
                },
                {
                  "identity" : "swift-collections",
                  "kind" : "remoteSourceControl",
                  "location" : "https://github.com/apple/swift-collections.git",
                  "state" : { "revision" : "abc", "version" : "1.1.0" }
                }
              ],
              "version" : 2
            }
            """]), ["SwiftPM spezihealthkit 1.1.2 unknown app/Steady.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved:4 ck"])

        XCTAssertEqual(try dependencies(["app/Package.resolved": """
            {
              "object": {
                "pins": [
                  {
                    "package": "CareKit",
                    "repositoryURL": "https://github.com/carekit-apple/CareKit.git",
                    "state": { "branch": null, "revision": "0a1b", "version": "2.0.2" }
                  }
                ]
              },
              "version": 1
            }
            """]), ["SwiftPM carekit 2.0.2 unknown app/Package.resolved:6 wck"])
    }

    /// A Flutter app audited from `ios/`: `pubspec.yaml` names the plugin, `pubspec.lock` resolves it;
    /// the Podfile.lock's `health` pod is the same plugin seen from iOS, so one row stands for both.
    func testPubspecAndItsLockFromTheIOSFolder() throws {
        XCTAssertEqual(try dependencies([
            "walker/pubspec.yaml": "name: walker\ndependencies:\n  flutter:\n    sdk: flutter\n  health: ^13.1.0\n",
            "walker/pubspec.lock": """
                packages:
                  carp_serializable:
                    dependency: transitive
                    version: "2.0.1"
                  health:
                    dependency: "direct main"
                    description:
                      name: health
                      url: "https://pub.dev"
                    source: hosted
                    version: "13.1.4"
                sdks:
                  dart: ">=3.5.0 <4.0.0"
                """,
            "walker/ios/Podfile.lock": "PODS:\n  - Flutter (1.0.0)\n  - health (13.1.4):\n    - Flutter\n\nDEPENDENCIES:\n  - health (from `.symlinks/plugins/health/ios`)\n",
        ], root: "walker/ios"), ["pub health 13.1.4 direct walker/pubspec.yaml:5 w"])
    }

    /// npm, yarn (classic and Berry) and pnpm (v6 and v9) locks; a package only in a lock is indirect,
    /// and a wrapper that links nothing (`@awesome-cordova-plugins/health`) is not a row.
    func testJavaScriptLockfiles() throws {
        XCTAssertEqual(try dependencies([
            "app/package.json": """
                {
                  "dependencies": {
                    "@awesome-cordova-plugins/health": "^6.0.0",
                    "@kingstinct/react-native-healthkit": "^9.0.0"
                  }
                }
                """,
            "app/package-lock.json": """
                {
                  "lockfileVersion": 3,
                  "packages": {
                    "node_modules/@kingstinct/react-native-healthkit": {
                      "version": "9.0.4",
                      "license": "MIT"
                    },
                    "node_modules/some-sdk/node_modules/react-native-health": {
                      "version": "1.19.0"
                    }
                  }
                }
                """,
        ]), [
            "npm @kingstinct/react-native-healthkit 9.0.4 direct app/package.json:4 w",
            "npm react-native-health 1.19.0 indirect app/package-lock.json:8 wc",
        ])
        XCTAssertEqual(try dependencies(["app/yarn.lock": """
            # yarn lockfile v1

            "@capgo/capacitor-health@^7.0.0":
              version "7.2.1"
              resolved "https://registry.yarnpkg.com/@capgo/capacitor-health/-/capacitor-health-7.2.1.tgz"

            cordova-plugin-health@^3.2.0, cordova-plugin-health@^3.2.4:
              version "3.2.4"
            """]), [
            "npm @capgo/capacitor-health 7.2.1 indirect app/yarn.lock:3 w",
            "npm cordova-plugin-health 3.2.4 indirect app/yarn.lock:7 w",
        ])
        XCTAssertEqual(try dependencies(["app/yarn.lock": """
            __metadata:
              version: 8

            "react-native-health@npm:^1.19.0":
              version: 1.19.0
              resolution: "react-native-health@npm:1.19.0"
            """]), ["npm react-native-health 1.19.0 indirect app/yarn.lock:4 wc"])
        XCTAssertEqual(try dependencies(["app/pnpm-lock.yaml": """
            lockfileVersion: '9.0'

            packages:

              '@capgo/capacitor-health@7.2.1':
                resolution: {integrity: sha512-abc}

              /react-native-health@1.19.0(react-native@0.76.0):
                resolution: {integrity: sha512-def}
            """]), [
            "npm @capgo/capacitor-health 7.2.1 indirect app/pnpm-lock.yaml:5 w",
            "npm react-native-health 1.19.0 indirect app/pnpm-lock.yaml:8 wc",
        ])
    }

    /// `  health:` with its source below (git, path) is a dependency too.
    func testPubspecBlockForm() throws {
        XCTAssertEqual(try dependencies(["app/pubspec.yaml": "name: app\ndependencies:\n  health:\n    git:\n      url: https://github.com/carp-dk/carp-health-flutter\n"]),
                       ["pub health - direct app/pubspec.yaml:3 w"])
    }

    /// A workspace's lockfile above the app lists every workspace's packages: it only completes
    /// what the app's own manifest names.
    func testAWorkspaceLockfileAboveTheAppOnlyCompletesItsManifest() throws {
        let lock = "react-native-health@^1.19.0:\n  version \"1.19.0\"\n\n\"@capgo/capacitor-health@^7.0.0\":\n  version \"7.2.1\"\n"
        XCTAssertEqual(try dependencies(["yarn.lock": lock, "apps/native/Steady.swift": "struct Steady {}\n"], root: "apps/native"), [])
        XCTAssertEqual(try dependencies(["apps/yarn.lock": lock, "apps/mobile/package.json": "{\n  \"dependencies\": {\n    \"react-native-health\": \"^1.19.0\"\n  }\n}\n"],
                                        root: "apps/mobile"),
                       ["npm react-native-health 1.19.0 direct apps/mobile/package.json:3 wc"])
    }

    func testThePodfileNamesADirectPod() throws {
        XCTAssertEqual(try dependencies(["app/Podfile": "platform :ios, '15.0'\n\ntarget 'Steady' do\n  pod 'HealthKitReporter', '~> 3.1'\nend\n"]),
                       ["CocoaPods HealthKitReporter - direct app/Podfile:4 wc"])
    }

    /// The registry is the one place a library is described: a package written twice would be
    /// found as whichever row comes first, and a pod a plugin installs without a CocoaPods row of
    /// its own would be read from Podfile.lock as nothing at all.
    func testEachLibraryIsDescribedOnceWithEveryPodItInstalls() {
        var seen: Set<String> = []
        for package in HealthKitLibrary.registry.flatMap(\.packages) {
            XCTAssertTrue(seen.insert(package.ecosystem.rawValue + " " + package.name).inserted, "\(package.name) is listed twice")
        }
        for pod in HealthKitPackage.table.flatMap(\.pods) {
            XCTAssertNotNil(HealthKitPackage.named(pod, in: .cocoapods), "pod \(pod) has no CocoaPods row")
        }
        XCTAssertEqual(Set(HealthKitLibrary.registry.map(\.name)).count, HealthKitLibrary.registry.count, "a library is described twice")
        for library in HealthKitLibrary.registry {
            // A package whose calls are said to be read belongs to a library with a call description.
            if library.packages.contains(where: \.callsAnalysed) {
                XCTAssertNotNil(library.language, "\(library.name) says its calls are read but describes none")
                XCTAssertFalse(library.methods.isEmpty, library.name)
            }
        }
        XCTAssertEqual(HealthKitLibrary.all.map(\.name), ["react-native-health", "@kingstinct/react-native-healthkit", "@capgo/capacitor-health", "cordova-plugin-health"])
    }

    /// A Cordova plugin is known by its `config.xml` id from the library that describes it.
    func testCordovaHealthPluginIsFoundFromItsDescription() throws {
        site = try TestSite(files: ["healthaudit.yml": "title: T\napps: []\n", "app/config.xml": """
            <?xml version="1.0" encoding="utf-8"?>
            <widget id="org.example.steps" version="1.0.0" xmlns="http://www.w3.org/ns/widgets" xmlns:cdv="http://cordova.apache.org/ns/1.0">
              <plugin name="com.telerik.plugins.healthkit" spec="~0.5.0">
                <variable name="HEALTH_READ_PERMISSION" value="Reads your steps to chart them" />
              </plugin>
            </widget>
            """])
        let config = try XCTUnwrap(CordovaConfig.read(folder: site.site + "/app", display: "app", fileSystem: LocalFileSystem()))
        XCTAssertEqual(config.healthPlugin?.name, "com.telerik.plugins.healthkit")
        XCTAssertEqual(config.healthPlugin?.line, 3)
    }
}
