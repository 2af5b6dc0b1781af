import Foundation

/// An XcodeGen app: `project.yml` with an application target (declared in the spec or a file it
/// includes) and no generated project committed. Read by `XcodeGenDiscovery`.
struct XcodeGenDriver: AppKindDriver {
    func detect(in folder: DiscoveryFolder) -> Detection? {
        let specFile = XcodeGenDiscovery.fileName
        guard folder.names.contains(specFile), folder.realProjects.isEmpty,
              let spec = XcodeGenDiscovery.application(spec: AppFiles.join(folder.here, specFile), in: folder.searchRoot, fileSystem: folder.fileSystem) else { return nil }
        let name = spec.projectName ?? (folder.here == "." ? spec.target : AppDiscovery.displayName(folder.here, folder: folder.searchRoot))
        // A white-label repository keeps one spec per app (`Apps/OneBusAway/project.yml`) whose paths
        // start at the repository root.
        if spec.pathsFromSearchRoot {
            let path = AppFiles.join(folder.here, specFile)
            return Detection(apps: [AppDiscovery.App(id: AppDiscovery.identifier(name, folder: folder.searchRoot), name: name, kind: "swift", root: ".", project: nil,
                                                     xcodegen: path, reason: "XcodeGen app (\(path), paths from the repository root)")])
        }
        return folder.claim("swift", named: name, reason: "XcodeGen app (project.yml with an application target)")
    }

    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim? {
        app.xcodeGenSpec != nil ? .named : files.exists(XcodeGenDiscovery.fileName) ? .found : nil
    }

    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws {
        guard let spec = app.xcodeGenSpec else { return try XcodeGenDiscovery(files: files).discover(into: &discovery) }
        guard files.exists(spec.value) else { throw InputError("XcodeGen spec '\(spec.value)' does not exist", at: spec.location) }
        try XcodeGenDiscovery(files: files, spec: spec.value).discover(into: &discovery)
    }
}
