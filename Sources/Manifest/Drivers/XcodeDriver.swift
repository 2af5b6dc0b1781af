import Foundation

/// An Xcode project (`.xcodeproj` with its `project.pbxproj`) with an application target, read by
/// `XcodeDiscovery`. A project folder without its `project.pbxproj` is no project: the XcodeGen
/// spec or Tuist manifest beside it is read instead, else discovery reports the folder as skipped.
struct XcodeDriver: AppKindDriver {
    func detect(in folder: DiscoveryFolder) -> Detection? {
        var found = Detection()
        let hasSpec = folder.names.contains(XcodeGenDiscovery.fileName) || folder.names.contains(TuistDiscovery.fileName)
        if !hasSpec {
            for project in folder.projects where !folder.realProjects.contains(project) {
                found.skipped.append(AppDiscovery.Skipped(path: AppFiles.join(folder.here, project),
                                                          reason: "no project.pbxproj in it (not committed?) and no project.yml or Project.swift beside it: not an Xcode project"))
            }
        }
        for project in folder.realProjects {
            let reason: String
            do {
                let text = try folder.fileSystem.contents(of: folder.path + "/" + project + "/project.pbxproj")
                guard String(decoding: text, as: UTF8.self).contains("com.apple.product-type.application") else { continue }
                reason = "Xcode project with an application target"
            } catch let error as InputError {
                // Too large, say: kept, so the audit reports why it is not read. A link out of the
                // folder or into git's data is not the repository's project at all.
                let message = error.problems.first?.message ?? "unreadable"
                guard !message.contains("leads outside"), message != GitMetadata.refusal else { continue }
                reason = "Xcode project whose project.pbxproj cannot be read (\(message))"
            } catch { continue }
            let name = String(project.dropLast(".xcodeproj".count))
            // The searched folder is the root, the project a path in it: the development pods and
            // local packages the app builds from (`pod 'Kit', :path => '../'`) sit beside or above
            // the project's folder, and reads stay inside the root.
            found.apps.append(AppDiscovery.App(id: AppDiscovery.identifier(name, folder: folder.searchRoot), name: name, kind: "swift", root: ".",
                                               project: AppFiles.join(folder.here, project), reason: reason))
        }
        return found
    }

    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim? { app.project != nil ? .named : nil }

    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws {
        guard let project = app.project else { return }
        guard let (spec, isTuist) = Self.specBeside(project.value, files: files) else {
            return try XcodeDiscovery(files: files).discover(project: project.value, at: project.location, into: &discovery)
        }
        // Xcode cannot open a project folder without its project.pbxproj; the spec that generates it is the project.
        discovery.note("\(files.display(project.value)) holds no project.pbxproj: the app is read from \(files.display(spec)) beside it",
                       origin: isTuist ? TuistDiscovery.fileName : XcodeGenDiscovery.fileName, at: project.location)
        if isTuist { TuistDiscovery(files: files, budget: parseBudget, manifest: spec).discover(into: &discovery) }
        else { try XcodeGenDiscovery(files: files, spec: spec).discover(into: &discovery) }
    }

    /// The XcodeGen spec or Tuist manifest beside an `.xcodeproj` folder that has no `project.pbxproj`.
    static func specBeside(_ project: String, files: AppFiles) -> (path: String, isTuist: Bool)? {
        guard let normalized = AppFiles.normalize(project.hasSuffix("/") ? String(project.dropLast()) : project),
              !files.exists(AppFiles.join(normalized, "project.pbxproj")) else { return nil }
        let folder = (normalized as NSString).deletingLastPathComponent
        let base = folder.isEmpty ? "." : folder
        if files.exists(AppFiles.join(base, XcodeGenDiscovery.fileName)) { return (AppFiles.join(base, XcodeGenDiscovery.fileName), false) }
        if files.exists(AppFiles.join(base, TuistDiscovery.fileName)) { return (AppFiles.join(base, TuistDiscovery.fileName), true) }
        return nil
    }
}
