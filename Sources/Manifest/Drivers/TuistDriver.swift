import Foundation

/// A Tuist app: `Project.swift` with an application target — written as a literal, or made by
/// `ProjectDescriptionHelpers` — and no generated project committed. Read by `TuistDiscovery`.
struct TuistDriver: AppKindDriver {
    func detect(in folder: DiscoveryFolder) -> Detection? {
        guard folder.names.contains(TuistDiscovery.fileName), folder.realProjects.isEmpty,
              let data = try? folder.fileSystem.contents(of: folder.path + "/" + TuistDiscovery.fileName) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let written = TuistDiscovery.declaresApp(text)
        guard written || TuistDiscovery.declaresAppThroughHelpers(text, folder: folder.path, root: folder.searchRoot, fileSystem: folder.fileSystem) else { return nil }
        // A helper-built manifest is named as the project it makes (`Project.makeModule(name: "Scales", …)`).
        let target = written ? TuistDiscovery.applicationName(in: text, budget: folder.parseBudget) : TuistDiscovery.projectName(in: text)
        return folder.claim("swift", named: target, reason: written ? "Tuist app (Project.swift with an application target)"
                                                                 : "Tuist app (Project.swift built by ProjectDescriptionHelpers that make an application target)")
    }

    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim? {
        app.tuistManifest != nil ? .named : files.exists(TuistDiscovery.fileName) ? .found : nil
    }

    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws {
        guard let manifest = app.tuistManifest else { return TuistDiscovery(files: files, budget: parseBudget).discover(into: &discovery) }
        guard files.exists(manifest.value) else { throw InputError("Tuist manifest '\(manifest.value)' does not exist", at: manifest.location) }
        TuistDiscovery(files: files, budget: parseBudget, manifest: manifest.value).discover(into: &discovery)
    }
}
