@testable import Manifest
import XCTest
import TestSupport

/// The script files audited are the ones that ship in the iOS app: followed by imports from the
/// app's entry, and without one, everything but folders that are outside the app by their role.
final class ShippedScriptsTests: XCTestCase {
    var builder: SiteBuilder!
    let entry = "    name: Stride\n    kind: react-native\n    root: apps/stride\n"

    override func setUp() { builder = SiteBuilder() }
    override func tearDown() { builder.remove() }

    static let appJSON = """
    { "expo": { "name": "Stride", "slug": "stride", "ios": { "bundleIdentifier": "org.example.stride" }, "plugins": ["react-native-health"] } }
    """

    static let health = """
    import AppleHealthKit, { HealthValue } from 'react-native-health';

    export const readSteps = (done: (steps: number | null) => void) =>
      AppleHealthKit.getStepCount({}, (error: string, result: HealthValue) => done(error ? null : result.value));
    """

    func paths(_ manifest: AppManifest) -> [String] {
        manifest.javaScriptSources.map(\.path).sorted()
    }

    func testABareAppIsFollowedFromIndexJS() throws {
        try builder.write([
            "app.json": Self.appJSON,
            "package.json": #"{ "name": "stride", "dependencies": { "react-native": "0.76.0", "react-native-health": "^1.19.0" } }"#,
            "index.js": "import { AppRegistry } from 'react-native';\nimport App from './App';\nAppRegistry.registerComponent('Stride', () => App);\n",
            "App.tsx": "import { Today } from './src/screens/Today';\nimport './src/polyfills';\nexport default function App() { return Today(); }\n",
            "src/screens/Today.tsx": "import { readSteps } from '../health';\nimport { Card } from '../components';\nexport const Today = () => Card(readSteps);\n",
            // `../components` is a folder with an index; `./src/polyfills` has an iOS variant only.
            "src/components/index.ts": "export * from './Card';\n",
            "src/components/Card.tsx": "export const Card = (x: unknown) => x;\n",
            "src/polyfills.ios.ts": "export {};\n",
            "src/health.ts": Self.health,
            // Never in the iOS bundle, or never imported by it.
            "src/components/Card.web.tsx": "export const Card = (x: unknown) => x;\n",
            "src/components/Card.stories.tsx": "import { Card } from './Card';\nexport default { component: Card };\n",
            "server/index.ts": "const steps = (body: { steps?: string }) => parseInt(body.steps ?? '', 10) || 0;\nexport default steps;\n",
            "scripts/seed.js": "console.log('seeding');\n",
            "unused/OldToday.tsx": "import { readSteps } from '../src/health';\nexport const OldToday = () => readSteps;\n",
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(paths(manifest), [
            "apps/stride/App.tsx", "apps/stride/index.js", "apps/stride/src/components/Card.tsx", "apps/stride/src/components/index.ts",
            "apps/stride/src/health.ts", "apps/stride/src/polyfills.ios.ts", "apps/stride/src/screens/Today.tsx",
        ])
        let note = try XCTUnwrap(manifest.discovery.first { $0.text.contains("not audited as the app's code") })
        XCTAssertTrue(note.text.hasPrefix("5 script files not audited"), note.text)
        XCTAssertTrue(note.text.contains("followed from `index.js`"), note.text)
    }

    func testExpoRouterRoutesAreEntriesAndAliasesAreFollowed() throws {
        try builder.write([
            "app.json": Self.appJSON,
            "package.json": #"{ "name": "stride", "main": "expo-router/entry", "dependencies": { "expo": "~52.0.0", "expo-router": "~4.0.0" } }"#,
            "tsconfig.json": #"{ "compilerOptions": { "paths": { "@/*": ["./*"] } } }"#,
            "app/_layout.tsx": "import { Stack } from 'expo-router';\nexport default function Layout() { return Stack; }\n",
            "app/(tabs)/index.tsx": "import { readSteps } from '@/lib/health';\nexport default function Home() { return readSteps; }\n",
            "lib/health.ts": Self.health,
            // An API route runs on the server; backend functions and an unimported component never ship.
            "app/api/steps+api.ts": "export function GET() { return Response.json({ steps: 0 }); }\n",
            "supabase/functions/sync/index.ts": "export const handler = (steps?: number) => steps || 0;\n",
            "components/Unused.tsx": "export const Unused = () => null;\n",
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(paths(manifest), ["apps/stride/app/(tabs)/index.tsx", "apps/stride/app/_layout.tsx", "apps/stride/lib/health.ts"])
        let note = try XCTUnwrap(manifest.discovery.first { $0.text.contains("not audited as the app's code") })
        XCTAssertTrue(note.text.contains("`app/` (Expo Router)"), note.text)
    }

    /// An entry that hands Expo Router its routes itself (`<ExpoRoot context={require.context('./app')} />`)
    /// ships every file of that folder, and what they import through an alias.
    func testRequireContextInTheEntryShipsTheFolderItNames() throws {
        try builder.write([
            "app.json": Self.appJSON,
            "package.json": #"{ "name": "stride", "main": "index.js", "dependencies": { "expo": "~54.0.0", "expo-router": "~6.0.0" } }"#,
            "tsconfig.json": #"{ "compilerOptions": { "paths": { "@utils/*": ["utils/*"] } } }"#,
            "index.js": "import { registerRootComponent } from 'expo';\nimport { ExpoRoot } from 'expo-router';\n"
                + "export function App() { return <ExpoRoot context={require.context('./app')} />; }\nregisterRootComponent(App);\n",
            "app/_layout.tsx": "import { Stack } from 'expo-router';\nexport default function Layout() { return Stack; }\n",
            "app/(tabs)/dashboard.tsx": "import { readSteps } from '@utils/health';\nexport default function Home() { return readSteps; }\n",
            "utils/health.ts": Self.health,
            "components/Unused.tsx": "export const Unused = () => null;\n",
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(paths(manifest), ["apps/stride/app/(tabs)/dashboard.tsx", "apps/stride/app/_layout.tsx", "apps/stride/index.js", "apps/stride/utils/health.ts"])
    }

    func testWithoutAnEntryOnlyFoldersOutsideTheAppAreLeftOutAndOnlyWhenNothingImportsThem() throws {
        // No index.js, no App, no main: nothing to follow from.
        try builder.write([
            "app.json": Self.appJSON,
            "package.json": #"{ "name": "stride", "dependencies": { "react-native-health": "^1.19.0" } }"#,
            "src/Main.tsx": "import { readSteps } from './health';\nimport { post } from './server/client';\nexport const Main = () => post(readSteps);\n",
            "src/health.ts": Self.health,
            // A folder named `server` that the app imports is the app's (its API client).
            "src/server/client.ts": "export const post = (x: unknown) => fetch('https://example.org', { method: 'POST', body: String(x) });\n",
            "src/Orphan.tsx": "export const Orphan = () => null;\n",
            "server/routes.ts": "export const steps = (body: { steps?: string }) => parseInt(body.steps ?? '', 10) || 0;\n",
            "functions/index.js": "exports.sync = () => 0;\n",
            "e2e/today.test.ts": "it('shows steps', () => {});\n",
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(paths(manifest), [
            "apps/stride/src/Orphan.tsx", "apps/stride/src/Main.tsx", "apps/stride/src/health.ts", "apps/stride/src/server/client.ts",
        ].sorted())
        let note = try XCTUnwrap(manifest.discovery.first { $0.text.contains("not audited as the app's code") })
        XCTAssertTrue(note.text.hasPrefix("2 script files not audited"), note.text)
        XCTAssertTrue(note.text.contains("no entry file found"), note.text)
    }

    func testFoldersAndFilesOutsideTheAppByTheirRole() {
        XCTAssertNotNil(ShippedScripts.outsideByFolder("server/index.ts"))
        XCTAssertNotNil(ShippedScripts.outsideByFolder("supabase/functions/sync/index.ts"))
        XCTAssertNotNil(ShippedScripts.outsideByFolder("src/components/stories/Steps.tsx"))
        XCTAssertNotNil(ShippedScripts.outsideByFolder("app/api/sync/route.ts"))
        XCTAssertNil(ShippedScripts.outsideByFolder("src/api/health.ts"), "an app's API client is app code")
        XCTAssertNil(ShippedScripts.outsideByFolder("app/tools/page.tsx"), "a route named tools is the app's")
        XCTAssertNil(ShippedScripts.outsideByFolder("src/serverless-banner.tsx"))
        let reactNative = ShippedScripts.outsideStems + ShippedScripts.otherPlatformStems
        XCTAssertEqual(ShippedScripts.fileEnding("src/Steps.stories.tsx", among: ShippedScripts.outsideStems), ".stories")
        XCTAssertEqual(ShippedScripts.fileEnding("app/api/steps+api.ts", among: ShippedScripts.outsideStems), "+api")
        XCTAssertEqual(ShippedScripts.fileEnding("src/Steps.web.tsx", among: reactNative), ".web")
        XCTAssertNil(ShippedScripts.fileEnding("src/Steps.web.tsx", among: ShippedScripts.outsideStems), "web code's own `.web` files ship in Capacitor and Cordova apps")
        XCTAssertNil(ShippedScripts.fileEnding("src/Steps.ios.tsx", among: reactNative))
    }
}
