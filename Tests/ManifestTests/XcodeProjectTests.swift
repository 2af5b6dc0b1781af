@testable import Manifest
import XCTest
import TestSupport

/// A small Xcode project written as Xcode writes it: an app target using Xcode's generated Info.plist
/// (`GENERATE_INFOPLIST_FILE` + `INFOPLIST_KEY_*`), a widget with its own Info.plist under `$(SRCROOT)`,
/// a unit-test target, nested groups, a group without a folder, a `SOURCE_ROOT` file, an SDK framework,
/// project-level variables, `$(inherited)`, an `.xcconfig`, a CocoaPods `.xcconfig`, and Debug/Release.
enum StrideProject {
    static let pbxproj = #"""
    // !$*UTF8*$!
    {
    	archiveVersion = 1;
    	classes = {
    	};
    	objectVersion = 60;
    	objects = {

    /* Begin PBXBuildFile section */
    		B1000000000000000000000A /* StrideApp.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000A /* StrideApp.swift */; };
    		B1000000000000000000000B /* SleepReader.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000B /* SleepReader.swift */; };
    		B1000000000000000000000C /* HomeView.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000C /* HomeView.swift */; };
    		B1000000000000000000000D /* Units.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000D /* Units.swift */; };
    		B1000000000000000000000E /* Gone.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000E /* Gone.swift */; };
    		B1000000000000000000000F /* HealthKit.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000F /* HealthKit.framework */; };
    		B10000000000000000000010 /* StrideWidget.swift in Sources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000010 /* StrideWidget.swift */; };
    		B10000000000000000000011 /* Units.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1000000000000000000000D /* Units.swift */; };
    		B10000000000000000000012 /* StrideTests.swift in Sources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000012 /* StrideTests.swift */; };
    		B10000000000000000000013 /* PrivacyInfo.xcprivacy in Resources */ = {isa = PBXBuildFile; fileRef = F10000000000000000000013 /* PrivacyInfo.xcprivacy */; };
    /* End PBXBuildFile section */

    /* Begin PBXFileReference section */
    		F1000000000000000000000A /* StrideApp.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = StrideApp.swift; sourceTree = "<group>"; };
    		F1000000000000000000000B /* SleepReader.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = SleepReader.swift; sourceTree = "<group>"; };
    		F1000000000000000000000C /* HomeView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = HomeView.swift; sourceTree = "<group>"; };
    		F1000000000000000000000D /* Units.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; name = Units.swift; path = Shared/Units.swift; sourceTree = SOURCE_ROOT; };
    		F1000000000000000000000E /* Gone.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Gone.swift; sourceTree = "<group>"; };
    		F1000000000000000000000F /* HealthKit.framework */ = {isa = PBXFileReference; lastKnownFileType = wrapper.framework; name = HealthKit.framework; path = System/Library/Frameworks/HealthKit.framework; sourceTree = SDKROOT; };
    		F10000000000000000000010 /* StrideWidget.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = StrideWidget.swift; sourceTree = "<group>"; };
    		F10000000000000000000011 /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
    		F10000000000000000000012 /* StrideTests.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = StrideTests.swift; sourceTree = "<group>"; };
    		F10000000000000000000013 /* PrivacyInfo.xcprivacy */ = {isa = PBXFileReference; lastKnownFileType = text.xml; path = PrivacyInfo.xcprivacy; sourceTree = "<group>"; };
    		F10000000000000000000014 /* Base.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; name = Base.xcconfig; path = Config/Base.xcconfig; sourceTree = SOURCE_ROOT; };
    		F10000000000000000000015 /* Pods-Stride.release.xcconfig */ = {isa = PBXFileReference; includeInIndex = 1; lastKnownFileType = text.xcconfig; name = "Pods-Stride.release.xcconfig"; path = "Target Support Files/Pods-Stride/Pods-Stride.release.xcconfig"; sourceTree = "<group>"; };
    		F10000000000000000000016 /* Stride.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Stride.app; sourceTree = BUILT_PRODUCTS_DIR; };
    		F10000000000000000000017 /* Stride.entitlements */ = {isa = PBXFileReference; lastKnownFileType = text.plist.entitlements; path = Stride.entitlements; sourceTree = "<group>"; };
    /* End PBXFileReference section */

    /* Begin PBXGroup section */
    		A10000000000000000000001 = {
    			isa = PBXGroup;
    			children = (
    				A10000000000000000000002 /* Stride */,
    				A10000000000000000000005 /* StrideWidget */,
    				A10000000000000000000006 /* Shared */,
    				A10000000000000000000007 /* StrideTests */,
    				A10000000000000000000008 /* Config */,
    				A10000000000000000000009 /* Frameworks */,
    				A1000000000000000000000A /* Pods */,
    			);
    			sourceTree = "<group>";
    		};
    		A10000000000000000000002 /* Stride */ = {
    			isa = PBXGroup;
    			children = (
    				F1000000000000000000000A /* StrideApp.swift */,
    				A10000000000000000000003 /* Health */,
    				A10000000000000000000004 /* Views */,
    				F1000000000000000000000E /* Gone.swift */,
    				F10000000000000000000013 /* PrivacyInfo.xcprivacy */,
    				F10000000000000000000017 /* Stride.entitlements */,
    			);
    			path = Stride;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000003 /* Health */ = {
    			isa = PBXGroup;
    			children = (
    				F1000000000000000000000B /* SleepReader.swift */,
    			);
    			path = Health;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000004 /* Views */ = {
    			isa = PBXGroup;
    			children = (
    				F1000000000000000000000C /* HomeView.swift */,
    			);
    			name = Views;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000005 /* StrideWidget */ = {
    			isa = PBXGroup;
    			children = (
    				F10000000000000000000010 /* StrideWidget.swift */,
    				F10000000000000000000011 /* Info.plist */,
    			);
    			path = StrideWidget;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000006 /* Shared */ = {
    			isa = PBXGroup;
    			children = (
    				F1000000000000000000000D /* Units.swift */,
    			);
    			path = Shared;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000007 /* StrideTests */ = {
    			isa = PBXGroup;
    			children = (
    				F10000000000000000000012 /* StrideTests.swift */,
    			);
    			path = StrideTests;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000008 /* Config */ = {
    			isa = PBXGroup;
    			children = (
    				F10000000000000000000014 /* Base.xcconfig */,
    			);
    			name = Config;
    			sourceTree = "<group>";
    		};
    		A10000000000000000000009 /* Frameworks */ = {
    			isa = PBXGroup;
    			children = (
    				F1000000000000000000000F /* HealthKit.framework */,
    			);
    			name = Frameworks;
    			sourceTree = "<group>";
    		};
    		A1000000000000000000000A /* Pods */ = {
    			isa = PBXGroup;
    			children = (
    				F10000000000000000000015 /* Pods-Stride.release.xcconfig */,
    			);
    			path = Pods;
    			sourceTree = "<group>";
    		};
    /* End PBXGroup section */

    /* Begin PBXNativeTarget section */
    		C10000000000000000000001 /* Stride */ = {
    			isa = PBXNativeTarget;
    			buildConfigurationList = E10000000000000000000002 /* Build configuration list for PBXNativeTarget "Stride" */;
    			buildPhases = (
    				D10000000000000000000001 /* Sources */,
    				D10000000000000000000002 /* Frameworks */,
    				D10000000000000000000003 /* Resources */,
    			);
    			buildRules = (
    			);
    			dependencies = (
    				910000000000000000000001 /* PBXTargetDependency */,
    			);
    			name = Stride;
    			productName = Stride;
    			productReference = F10000000000000000000016 /* Stride.app */;
    			productType = "com.apple.product-type.application";
    		};
    		C10000000000000000000002 /* StrideWidgetExtension */ = {
    			isa = PBXNativeTarget;
    			buildConfigurationList = E10000000000000000000003 /* Build configuration list for PBXNativeTarget "StrideWidgetExtension" */;
    			buildPhases = (
    				D10000000000000000000004 /* Sources */,
    			);
    			buildRules = (
    			);
    			dependencies = (
    			);
    			name = StrideWidgetExtension;
    			productName = StrideWidgetExtension;
    			productType = "com.apple.product-type.app-extension";
    		};
    		C10000000000000000000003 /* StrideTests */ = {
    			isa = PBXNativeTarget;
    			buildConfigurationList = E10000000000000000000004 /* Build configuration list for PBXNativeTarget "StrideTests" */;
    			buildPhases = (
    				D10000000000000000000005 /* Sources */,
    			);
    			buildRules = (
    			);
    			dependencies = (
    			);
    			name = StrideTests;
    			productName = StrideTests;
    			productType = "com.apple.product-type.bundle.unit-test";
    		};
    /* End PBXNativeTarget section */

    /* Begin PBXProject section */
    		910000000000000000000000 /* Project object */ = {
    			isa = PBXProject;
    			buildConfigurationList = E10000000000000000000001 /* Build configuration list for PBXProject "Stride" */;
    			compatibilityVersion = "Xcode 15.0";
    			developmentRegion = en;
    			hasScannedForEncodings = 0;
    			knownRegions = (
    				en,
    				Base,
    			);
    			mainGroup = A10000000000000000000001;
    			projectDirPath = "";
    			projectRoot = "";
    			targets = (
    				C10000000000000000000001 /* Stride */,
    				C10000000000000000000002 /* StrideWidgetExtension */,
    				C10000000000000000000003 /* StrideTests */,
    			);
    		};
    /* End PBXProject section */

    /* Begin PBXResourcesBuildPhase section */
    		D10000000000000000000003 /* Resources */ = {
    			isa = PBXResourcesBuildPhase;
    			buildActionMask = 2147483647;
    			files = (
    				B10000000000000000000013 /* PrivacyInfo.xcprivacy in Resources */,
    			);
    			runOnlyForDeploymentPostprocessing = 0;
    		};
    /* End PBXResourcesBuildPhase section */

    /* Begin PBXSourcesBuildPhase section */
    		D10000000000000000000001 /* Sources */ = {
    			isa = PBXSourcesBuildPhase;
    			buildActionMask = 2147483647;
    			files = (
    				B1000000000000000000000A /* StrideApp.swift in Sources */,
    				B1000000000000000000000B /* SleepReader.swift in Sources */,
    				B1000000000000000000000C /* HomeView.swift in Sources */,
    				B1000000000000000000000D /* Units.swift in Sources */,
    				B1000000000000000000000E /* Gone.swift in Sources */,
    			);
    			runOnlyForDeploymentPostprocessing = 0;
    		};
    		D10000000000000000000002 /* Frameworks */ = {
    			isa = PBXFrameworksBuildPhase;
    			buildActionMask = 2147483647;
    			files = (
    				B1000000000000000000000F /* HealthKit.framework in Frameworks */,
    			);
    			runOnlyForDeploymentPostprocessing = 0;
    		};
    		D10000000000000000000004 /* Sources */ = {
    			isa = PBXSourcesBuildPhase;
    			buildActionMask = 2147483647;
    			files = (
    				B10000000000000000000010 /* StrideWidget.swift in Sources */,
    				B10000000000000000000011 /* Units.swift in Sources */,
    			);
    			runOnlyForDeploymentPostprocessing = 0;
    		};
    		D10000000000000000000005 /* Sources */ = {
    			isa = PBXSourcesBuildPhase;
    			buildActionMask = 2147483647;
    			files = (
    				B10000000000000000000012 /* StrideTests.swift in Sources */,
    			);
    			runOnlyForDeploymentPostprocessing = 0;
    		};
    /* End PBXSourcesBuildPhase section */

    /* Begin PBXTargetDependency section */
    		910000000000000000000001 /* PBXTargetDependency */ = {
    			isa = PBXTargetDependency;
    			target = C10000000000000000000002 /* StrideWidgetExtension */;
    		};
    /* End PBXTargetDependency section */

    /* Begin XCBuildConfiguration section */
    		E20000000000000000000001 /* Debug */ = {
    			isa = XCBuildConfiguration;
    			baseConfigurationReference = F10000000000000000000014 /* Base.xcconfig */;
    			buildSettings = {
    				BUNDLE_PREFIX = org.example;
    				"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Developer";
    				OTHER_SWIFT_FLAGS = "-DSTRIDE";
    				SDKROOT = iphoneos;
    			};
    			name = Debug;
    		};
    		E20000000000000000000002 /* Release */ = {
    			isa = XCBuildConfiguration;
    			baseConfigurationReference = F10000000000000000000014 /* Base.xcconfig */;
    			buildSettings = {
    				BUNDLE_PREFIX = org.example;
    				"CODE_SIGN_IDENTITY[sdk=iphoneos*]" = "iPhone Distribution";
    				CODE_SIGN_IDENTITY = "Apple Development";
    				OTHER_SWIFT_FLAGS = "-DSTRIDE";
    				SDKROOT = iphoneos;
    			};
    			name = Release;
    		};
    		E20000000000000000000003 /* Debug */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				CODE_SIGN_ENTITLEMENTS = "$(SRCROOT)/Stride/Stride.entitlements";
    				GENERATE_INFOPLIST_FILE = YES;
    				INFOPLIST_KEY_CFBundleDisplayName = "$(PRODUCT_NAME) β";
    				INFOPLIST_KEY_NSHealthShareUsageDescription = "TODO";
    				INFOPLIST_KEY_NSHealthUpdateUsageDescription = "$(PRODUCT_NAME) saves the naps you log as sleep in Health.";
    				PRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).$(PRODUCT_NAME:lower).debug";
    				PRODUCT_NAME = "$(TARGET_NAME)";
    				TARGETED_DEVICE_FAMILY = "1,2";
    			};
    			name = Debug;
    		};
    		E20000000000000000000004 /* Release */ = {
    			isa = XCBuildConfiguration;
    			baseConfigurationReference = F10000000000000000000015 /* Pods-Stride.release.xcconfig */;
    			buildSettings = {
    				CODE_SIGN_ENTITLEMENTS = "$(SRCROOT)/Stride/Stride.entitlements";
    				GENERATE_INFOPLIST_FILE = YES;
    				INFOPLIST_KEY_CFBundleDisplayName = "$(PRODUCT_NAME)";
    				INFOPLIST_KEY_NSHealthShareUsageDescription = "$(PRODUCT_NAME) reads your sleep and heart rate to score each night.";
    				INFOPLIST_KEY_NSHealthUpdateUsageDescription = "$(PRODUCT_NAME) saves the naps you log as sleep in Health.";
    				OTHER_SWIFT_FLAGS = "$(inherited) -DRELEASE";
    				PRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).$(PRODUCT_NAME:lower)";
    				PRODUCT_NAME = "$(TARGET_NAME)";
    				TARGETED_DEVICE_FAMILY = "1,2";
    			};
    			name = Release;
    		};
    		E20000000000000000000005 /* Debug */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				INFOPLIST_FILE = "$(SRCROOT)/StrideWidget/Info.plist";
    				PRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).stride.debug.widget";
    				PRODUCT_NAME = "$(TARGET_NAME)";
    			};
    			name = Debug;
    		};
    		E20000000000000000000006 /* Release */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				INFOPLIST_FILE = "$(SRCROOT)/StrideWidget/Info.plist";
    				PRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).stride.widget";
    				PRODUCT_NAME = "$(TARGET_NAME)";
    			};
    			name = Release;
    		};
    		E20000000000000000000007 /* Debug */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				GENERATE_INFOPLIST_FILE = YES;
    				PRODUCT_NAME = "$(TARGET_NAME)";
    			};
    			name = Debug;
    		};
    		E20000000000000000000008 /* Release */ = {
    			isa = XCBuildConfiguration;
    			buildSettings = {
    				GENERATE_INFOPLIST_FILE = YES;
    				PRODUCT_NAME = "$(TARGET_NAME)";
    			};
    			name = Release;
    		};
    /* End XCBuildConfiguration section */

    /* Begin XCConfigurationList section */
    		E10000000000000000000001 /* Build configuration list for PBXProject "Stride" */ = {
    			isa = XCConfigurationList;
    			buildConfigurations = (
    				E20000000000000000000001 /* Debug */,
    				E20000000000000000000002 /* Release */,
    			);
    			defaultConfigurationIsVisible = 0;
    			defaultConfigurationName = Release;
    		};
    		E10000000000000000000002 /* Build configuration list for PBXNativeTarget "Stride" */ = {
    			isa = XCConfigurationList;
    			buildConfigurations = (
    				E20000000000000000000003 /* Debug */,
    				E20000000000000000000004 /* Release */,
    			);
    			defaultConfigurationIsVisible = 0;
    			defaultConfigurationName = Release;
    		};
    		E10000000000000000000003 /* Build configuration list for PBXNativeTarget "StrideWidgetExtension" */ = {
    			isa = XCConfigurationList;
    			buildConfigurations = (
    				E20000000000000000000005 /* Debug */,
    				E20000000000000000000006 /* Release */,
    			);
    			defaultConfigurationIsVisible = 0;
    			defaultConfigurationName = Release;
    		};
    		E10000000000000000000004 /* Build configuration list for PBXNativeTarget "StrideTests" */ = {
    			isa = XCConfigurationList;
    			buildConfigurations = (
    				E20000000000000000000007 /* Debug */,
    				E20000000000000000000008 /* Release */,
    			);
    			defaultConfigurationIsVisible = 0;
    			defaultConfigurationName = Release;
    		};
    /* End XCConfigurationList section */
    	};
    	rootObject = 910000000000000000000000 /* Project object */;
    }
    """#

    static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>NSExtension</key>
    \t<dict>
    \t\t<key>NSExtensionPointIdentifier</key>
    \t\t<string>com.apple.widgetkit-extension</string>
    \t</dict>
    </dict>
    </plist>

    """

    static let entitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>com.apple.developer.healthkit</key>
    \t<true/>
    </dict>
    </plist>

    """

    /// The files of the app, relative to its root.
    static var files: [String: String] {
        [
            "Stride.xcodeproj/project.pbxproj": pbxproj,
            "Stride/StrideApp.swift": "import SwiftUI\n",
            "Stride/Health/SleepReader.swift": "import HealthKit\n",
            "Stride/HomeView.swift": "import SwiftUI\n",
            "Stride/Stride.entitlements": entitlements,
            "Stride/PrivacyInfo.xcprivacy": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n</dict>\n</plist>\n",
            "Shared/Units.swift": "import Foundation\n",
            "StrideWidget/StrideWidget.swift": "import WidgetKit\n",
            "StrideWidget/Info.plist": plist,
            "StrideTests/StrideTests.swift": "import XCTest\n",
            "Config/Base.xcconfig": "// Shared by every configuration\nMARKETING_VERSION = 2.1.0\nCURRENT_PROJECT_VERSION = 44 // CI bumps this\n",
        ]
    }

    /// The line of the project file that contains `text` (the first after the line containing `marker`).
    static func line(of text: String, after marker: String? = nil) -> Int {
        let lines = pbxproj.split(separator: "\n", omittingEmptySubsequences: false)
        let start = marker.map { marker in lines.firstIndex { $0.contains(marker) }! } ?? 0
        return lines[start...].firstIndex { $0.contains(text) }! + 1
    }
}

/// Writes an app's files and a config entry into a fresh site folder and loads it like `build` does.
struct SiteBuilder {
    let site = Repository.temporaryDirectory()

    func write(_ files: [String: String], app: String = "stride") throws {
        for (path, text) in files {
            let full = site + "/apps/\(app)/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
    }

    /// `entry` holds the app's keys after `id`, indented by four spaces.
    func load(_ entry: String) throws -> AppManifest {
        try ("title: T\napps:\n  - id: stride\n" + entry).write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let config = try ConfigLoader().load(siteDirectory: site)
        return try ManifestLoader(siteDirectory: site).load(config.apps[0])
    }

    func errors(_ entry: String) -> [InputProblem] {
        do {
            _ = try load(entry)
            XCTFail("expected input errors")
            return []
        } catch let error as InputError {
            return error.problems
        } catch {
            XCTFail("unexpected \(error)")
            return []
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: site) }
}

final class XcodeProjectTests: XCTestCase {
    var builder: SiteBuilder!
    let entry = "    name: Stride\n    root: apps/stride\n    project: Stride.xcodeproj\n"
    let pbx = "apps/stride/Stride.xcodeproj/project.pbxproj"

    override func setUpWithError() throws {
        builder = SiteBuilder()
        try builder.write(StrideProject.files)
    }

    override func tearDown() { builder.remove() }

    // MARK: The old-style property list

    func testParserReadsOpenStepValuesWithTheirLines() throws {
        let text = """
        // !$*UTF8*$!
        {
        \tname = "Quoted \\"value\\" \\U00e9";  /* a comment */
        \tbare = $SRCROOT/a-b.c;
        \tlist = (
        \t\tone,
        \t\t"two",
        \t);
        \tdata = <0fA0 01>;
        \tnested = {inner = "{;}"; };
        }
        """
        let root = try OpenStepPlistParser.parse(Data(text.utf8), file: "p.pbxproj")
        XCTAssertEqual(root["name"]?.string, "Quoted \"value\" é")
        XCTAssertEqual(root["bare"]?.string, "$SRCROOT/a-b.c")
        XCTAssertEqual(root["list"]?.strings, ["one", "two"])
        XCTAssertEqual(root["list"]?.line, 5)
        XCTAssertEqual(root.entries?.first { $0.key == "data" }?.keyLine, 9)
        if case .data(let bytes)? = root["data"]?.value { XCTAssertEqual(Array(bytes), [0x0F, 0xA0, 0x01]) } else { XCTFail("data") }
        XCTAssertEqual(root["nested"]?["inner"]?.string, "{;}")
    }

    func testParserErrorsCarryLineAndColumn() {
        let text = "{\n\ta = 1;\n\tb = 2\n\tc = 3;\n}\n"
        XCTAssertThrowsError(try OpenStepPlistParser.parse(Data(text.utf8), file: "p.pbxproj")) { error in
            let error = (error as! InputError).problems[0]
            XCTAssertEqual(error.location.file, "p.pbxproj")
            XCTAssertEqual(error.location.line, 4)
            XCTAssertEqual(error.location.column, 2)
            XCTAssertTrue(error.message.contains("expected ';' after the value of 'b'"), error.message)
        }
        XCTAssertThrowsError(try OpenStepPlistParser.parse(Data("{ a = \"open;\n}".utf8), file: "p")) { error in
            XCTAssertEqual((error as! InputError).problems[0].location.line, 1)
            XCTAssertTrue((error as! InputError).problems[0].message.contains("unterminated string"))
        }
        XCTAssertThrowsError(try OpenStepPlistParser.parse(Data("{ a = 1; a = 2; }".utf8), file: "p")) { error in
            XCTAssertTrue((error as! InputError).problems[0].message.contains("duplicate key 'a'"))
        }
    }

    func testAMalformedProjectFileIsAnInputErrorAtItsLine() throws {
        let broken = StrideProject.pbxproj.replacingOccurrences(of: "\t\t\t\tBUNDLE_PREFIX = org.example;\n\t\t\t\t\"CODE_SIGN_IDENTITY[sdk=iphoneos*]\" = \"iPhone Developer\";",
                                                               with: "\t\t\t\tBUNDLE_PREFIX = org.example\n\t\t\t\t\"CODE_SIGN_IDENTITY[sdk=iphoneos*]\" = \"iPhone Developer\";")
        XCTAssertNotEqual(broken, StrideProject.pbxproj)
        try builder.write(["Stride.xcodeproj/project.pbxproj": broken])
        let errors = builder.errors(entry)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.location.file, pbx)
        XCTAssertEqual(errors.first?.location.line, StrideProject.line(of: "\"iPhone Developer\""))
    }

    // MARK: Targets, configurations, settings

    func testTargetsAndProductTypes() throws {
        let project = try XcodeProject(data: Data(StrideProject.pbxproj.utf8), file: pbx, projectPath: "Stride.xcodeproj")
        XCTAssertEqual(project.targets.map(\.name), ["Stride", "StrideWidgetExtension", "StrideTests"])
        XCTAssertEqual(project.targets.map(\.kind), [.application, .appExtension, .tests])
        XCTAssertEqual(project.configurations.defaultName, "Release")
        XCTAssertEqual(project.targets[0].dependencies, [project.targets[1].id])
        XCTAssertEqual(project.projectDirectory, ".")
    }

    func testGroupPathsAndSourceTreesResolve() throws {
        let manifest = try builder.load(entry)
        // Nested group with a folder, a group without one, SOURCE_ROOT; the missing file is left out; SDKROOT is no source.
        XCTAssertEqual(manifest.main.sources.map(\.path), [
            "apps/stride/Stride/StrideApp.swift", "apps/stride/Stride/Health/SleepReader.swift",
            "apps/stride/Stride/HomeView.swift", "apps/stride/Shared/Units.swift",
        ])
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.contains("Stride/Gone.swift is in the Sources phase of Stride but not on disk") },
                      manifest.discovery.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(manifest.config.privacyManifest, "Stride/PrivacyInfo.xcprivacy")
        XCTAssertNotNil(manifest.privacyManifest)
        XCTAssertFalse(manifest.targets.flatMap(\.sources).contains { $0.path.contains("StrideTests") }, "test targets are not audited")
    }

    func testGeneratedInfoPlistComesFromInfoPlistKeySettings() throws {
        let manifest = try builder.load(entry)
        let plist = try XCTUnwrap(manifest.main.infoPlist)
        XCTAssertEqual(plist.format, .buildSettings)
        XCTAssertEqual(plist.path, pbx)
        XCTAssertEqual(plist["NSHealthShareUsageDescription"]?.string, "$(PRODUCT_NAME) reads your sleep and heart rate to score each night.")
        let releaseLine = StrideProject.line(of: "score each night")
        XCTAssertEqual(plist.location(of: "NSHealthShareUsageDescription"), FileLocation(file: pbx, line: releaseLine))
        XCTAssertTrue(plist.quote("NSHealthShareUsageDescription").hasPrefix("INFOPLIST_KEY_NSHealthShareUsageDescription = "))
        let usage = try XCTUnwrap(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(usage.origin, .buildSetting)
        XCTAssertEqual(usage.location.line, releaseLine)
        XCTAssertNotNil(manifest.usageString("NSHealthUpdateUsageDescription"))
        // Missing keys point at GENERATE_INFOPLIST_FILE of the audited configuration.
        XCTAssertEqual(plist.location(of: nil).line, StrideProject.line(of: "GENERATE_INFOPLIST_FILE = YES;", after: "E20000000000000000000004 /* Release */ = {"))
        XCTAssertEqual(plist.quote(nil), "GENERATE_INFOPLIST_FILE = YES;")
        XCTAssertEqual(manifest.config.localizations, "Stride", "strings are looked for in the target's folder")
    }

    func testVariablesResolveThroughLevels() throws {
        let settings = try builder.load(entry).config.buildSettings
        XCTAssertEqual(settings["PRODUCT_NAME"], "Stride", "$(TARGET_NAME)")
        XCTAssertEqual(settings["PRODUCT_BUNDLE_IDENTIFIER"], "org.example.stride", "project-level variable and :lower")
        XCTAssertEqual(settings["OTHER_SWIFT_FLAGS"], "-DSTRIDE -DRELEASE", "$(inherited) reaches the project level")
        XCTAssertEqual(settings["CODE_SIGN_IDENTITY"], "iPhone Distribution", "the [sdk=iphoneos*] condition applies")
        XCTAssertEqual(settings["MARKETING_VERSION"], "2.1.0", "project .xcconfig")
        XCTAssertEqual(settings["CURRENT_PROJECT_VERSION"], "44", "comment stripped")
        XCTAssertEqual(settings["EXECUTABLE_NAME"], "Stride")
        XCTAssertEqual(settings["PRODUCT_BUNDLE_PACKAGE_TYPE"], "APPL")
        XCTAssertEqual(settings["DEVELOPMENT_LANGUAGE"], "en")
        XCTAssertEqual(settings["SRCROOT"], "apps/stride")
        XCTAssertEqual(settings["TARGETED_DEVICE_FAMILY"], "1,2")
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.config.buildSettingOrigins["PRODUCT_NAME"]?.location,
                       FileLocation(file: pbx, line: StrideProject.line(of: "PRODUCT_NAME = \"$(TARGET_NAME)\";", after: "E20000000000000000000004 /* Release */ = {")))
        XCTAssertEqual(manifest.config.buildSettingOrigins["PRODUCT_NAME"]?.quote, "PRODUCT_NAME = \"$(TARGET_NAME)\";")
        XCTAssertEqual(manifest.config.buildSettingOrigins["MARKETING_VERSION"]?.location, FileLocation(file: "apps/stride/Config/Base.xcconfig", line: 2))
        XCTAssertTrue(manifest.discovery.contains { $0.text.contains("Pods-Stride.release.xcconfig") && $0.text.contains("dependency manager") })
    }

    /// A Flutter app's `ios/Flutter/Generated.xcconfig` is written by `flutter build` and never
    /// committed: its FLUTTER_BUILD_NAME / NUMBER come from pubspec.yaml, with no missing-file note.
    func testFlutterGeneratedSettingsComeFromPubspec() throws {
        let flutter = SiteBuilder()
        defer { flutter.remove() }
        var files: [String: String] = ["pubspec.yaml": "name: stride\ndescription: Steps.\nversion: 3.4.1+12 # bumped by CI\n"]
        for (path, text) in StrideProject.files { files["ios/" + path] = text }
        files["ios/Config/Base.xcconfig"] = "#include \"../Flutter/Generated.xcconfig\"\nMARKETING_VERSION = $(FLUTTER_BUILD_NAME)\nCURRENT_PROJECT_VERSION = $(FLUTTER_BUILD_NUMBER)\n"
        try flutter.write(files)
        let manifest = try flutter.load("    name: Stride\n    root: apps/stride\n    project: ios/Stride.xcodeproj\n")
        XCTAssertEqual(manifest.config.buildSettings["MARKETING_VERSION"], "3.4.1")
        XCTAssertEqual(manifest.config.buildSettings["CURRENT_PROJECT_VERSION"], "12")
        XCTAssertEqual(manifest.config.buildSettingOrigins["FLUTTER_BUILD_NAME"]?.location, FileLocation(file: "apps/stride/pubspec.yaml", line: 3))
        XCTAssertFalse(manifest.discovery.contains { $0.text.contains("Generated.xcconfig") && $0.isNote }, manifest.discovery.map(\.text).joined(separator: "\n"))
    }

    func testTheOtherConfigurationCanBeChosenAndDifferencesAreNoted() throws {
        let release = try builder.load(entry)
        let difference = try XCTUnwrap(release.discovery.first { $0.isNote && $0.text.hasPrefix("Debug sets INFOPLIST_KEY_NSHealthShareUsageDescription") },
                                       release.discovery.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(difference.location?.line, StrideProject.line(of: "NSHealthShareUsageDescription = \"TODO\""))

        let debug = try builder.load(entry + "    configuration: Debug\n")
        XCTAssertEqual(debug.main.infoPlist?["NSHealthShareUsageDescription"]?.string, "TODO")
        XCTAssertEqual(debug.config.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"], "org.example.stride.debug")
        XCTAssertEqual(debug.config.buildSettings["CODE_SIGN_IDENTITY"], "iPhone Developer")
        XCTAssertTrue(debug.discovery.contains { $0.text.hasPrefix("Configuration Debug, as the config asks") })

        let errors = builder.errors(entry + "    configuration: Staging\n")
        XCTAssertEqual(errors.first?.location.file, "healthaudit.yml")
        XCTAssertEqual(errors.first?.location.line, 7)
        XCTAssertTrue(errors.first?.message.contains("it has: Debug, Release") == true, errors.first?.message ?? "")
    }

    func testTheWidgetTargetIsAnExtensionWithItsOwnInfoPlist() throws {
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.extensions.map(\.id), ["stride-widget-extension"])
        let widget = try XCTUnwrap(manifest.extensions.first)
        XCTAssertEqual(widget.name, "StrideWidgetExtension")
        XCTAssertEqual(widget.infoPlist?.path, "apps/stride/StrideWidget/Info.plist", "$(SRCROOT)/StrideWidget/Info.plist")
        XCTAssertEqual(widget.extensionPoint, "com.apple.widgetkit-extension")
        XCTAssertEqual(widget.sources.map(\.path), ["apps/stride/StrideWidget/StrideWidget.swift", "apps/stride/Shared/Units.swift"])
        XCTAssertNil(widget.entitlements)
        XCTAssertTrue(manifest.inputFiles.contains(pbx))
        XCTAssertTrue(manifest.discovery.contains { $0.text == "StrideTests (tests) is not audited" })
    }

    func testTargetsCanBeNamedAndUnknownOnesAreErrors() throws {
        let manifest = try builder.load(entry + "    targets: [Stride]\n")
        XCTAssertEqual(manifest.extensions.count, 0)
        let errors = builder.errors(entry + "    targets: [Stride, StrideWatch]\n")
        XCTAssertEqual(errors.first?.location.line, 7)
        XCTAssertTrue(errors.first?.message.contains("target 'StrideWatch' is not in Stride.xcodeproj (targets: Stride, StrideWidgetExtension, StrideTests)") == true,
                      errors.first?.message ?? "")
    }

    func testHandWrittenKeysOverrideDiscovery() throws {
        try builder.write(["Stride/Legacy-Info.plist": RuleExamplePlist.healthApp])
        let manifest = try builder.load(entry + "    info_plist: Stride/Legacy-Info.plist\n    sources: [Stride/Health]\n    build_settings: {PRODUCT_NAME: Stride Sleep}\n")
        XCTAssertEqual(manifest.main.infoPlist?.path, "apps/stride/Stride/Legacy-Info.plist")
        XCTAssertEqual(manifest.main.infoPlist?.format, .xml)
        XCTAssertEqual(manifest.main.sources.map(\.path), ["apps/stride/Stride/Health/SleepReader.swift"])
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_NAME"], "Stride Sleep")
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"], "org.example.stride", "other discovered settings stay")
        XCTAssertEqual(manifest.extensions.count, 1)
    }

    func testAnInfoPlistNoConfigurationUsesIsReported() throws {
        try builder.write(["Stride/Info.plist": RuleExamplePlist.healthApp])
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.main.infoPlist?.format, .buildSettings, "the generated Info.plist is still the one audited")
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text == "apps/stride/Stride/Info.plist exists but no configuration of Stride uses it (the Info.plist is generated)" },
                      manifest.discovery.map(\.text).joined(separator: "\n"))
    }

    func testMissingProjectAndMissingFilesAreInputError() throws {
        var errors = builder.errors("    root: apps/stride\n    project: Other.xcodeproj\n")
        XCTAssertEqual(errors.first?.location.line, 5)
        XCTAssertTrue(errors.first?.message.contains("apps/stride/Other.xcodeproj/project.pbxproj' does not exist") == true, errors.first?.message ?? "")

        try builder.write(["Stride.xcodeproj/project.pbxproj": StrideProject.pbxproj.replacingOccurrences(of: "$(SRCROOT)/StrideWidget/Info.plist", with: "Widget/Info.plist")])
        errors = builder.errors(entry)
        XCTAssertEqual(errors.first?.location.file, pbx)
        XCTAssertEqual(errors.first?.location.line, StrideProject.line(of: "INFOPLIST_FILE", after: "E20000000000000000000006 /* Release */ = {"))
        XCTAssertTrue(errors.first?.message.contains("'apps/stride/Widget/Info.plist' does not exist") == true, errors.first?.message ?? "")
    }

    func testConfigKeysAreValidated() {
        func parse(_ yaml: String) -> [InputProblem] {
            do { _ = try ConfigLoader().parse(yaml, file: "healthaudit.yml", siteDirectory: "/site"); return [] } catch let error as InputError { return error.problems } catch { return [] }
        }
        XCTAssertTrue(parse("apps:\n  - id: a\n    project: App.xcodeproj\n    targets: [App]\n    configuration: Debug\n").isEmpty)
        XCTAssertTrue(parse("apps:\n  - id: a\n    project: App/Info.plist\n").first?.message.contains("must name an .xcodeproj") == true)
        XCTAssertTrue(parse("apps:\n  - id: a\n    project: ../App.xcodeproj\n").first?.message.contains("leaves its folder") == true)
        XCTAssertTrue(parse("apps:\n  - id: a\n    configuration: Debug\n").first?.message.contains("'configuration' needs 'project'") == true)
        XCTAssertTrue(parse("apps:\n  - id: a\n    targets: [A]\n").first?.message.contains("'targets' needs 'project'") == true)
    }

    // MARK: The example in Site/

    func testRunnerExampleIsDiscoveredFromItsProject() throws {
        let config = try ConfigLoader().load(siteDirectory: Repository.site)
        let app = try XCTUnwrap(config.apps.first { $0.id == "runner" })
        XCTAssertNil(app.infoPlist)
        XCTAssertTrue(app.sources.isEmpty)
        let manifest = try ManifestLoader(siteDirectory: Repository.site).load(app)
        XCTAssertEqual(manifest.main.infoPlist?.format, .buildSettings)
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.location.file, "apps/runner/Runner.xcodeproj/project.pbxproj")
        XCTAssertEqual(manifest.main.entitlements?.path, "apps/runner/Runner/Runner.entitlements")
        XCTAssertTrue(manifest.main.sources.contains { $0.path == "apps/runner/Runner/RunSummaryView.swift" }, "a group without a folder")
        XCTAssertTrue(manifest.main.sources.contains { $0.path == "apps/runner/Shared/Formatting.swift" }, "SOURCE_ROOT")
        XCTAssertEqual(manifest.extensions.map(\.id), ["runner-widget-extension"])
        XCTAssertEqual(manifest.extensions.first?.infoPlist?.path, "apps/runner/RunnerWidget/Info.plist")
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"], "com.example.runner")
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.hasPrefix("Debug sets INFOPLIST_KEY_NSHealthShareUsageDescription") })
    }
}

/// A plain XML Info.plist for tests that need one on disk.
enum RuleExamplePlist {
    static let healthApp = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>NSHealthShareUsageDescription</key>
    \t<string>Stride reads your sleep to score each night.</string>
    </dict>
    </plist>

    """
}
