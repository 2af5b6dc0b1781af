import Foundation

/// Other Xcode projects of the repository that build frameworks the app links by name (a
/// workspace's sibling project, a dependency checked out beside the app): the app runs their
/// code, so their framework targets' Swift files are read as its dependency code. Only projects
/// inside the app's root are looked at, each read within the file system's limits.
struct SiblingProjects {
    let files: AppFiles
    static let maxDepth = 4
    static let maxProjects = 32

    /// Swift files of the framework targets named `frameworks` in projects other than `project`.
    func frameworkSources(named frameworks: [String], besides project: String, into discovery: inout Discovery) -> [String] {
        // CocoaPods' aggregate frameworks (`Pods_App.framework`) are built by Pods/, never by a sibling.
        var wanted = Set(frameworks.filter { !$0.hasPrefix("Pods_") })
        guard !wanted.isEmpty else { return [] }
        var found: [String] = []
        for candidate in projects(besides: project) where !wanted.isEmpty {
            let pbxproj = AppFiles.join(candidate, "project.pbxproj")
            // Parsed only when it names a wanted product: most projects of a repository are not siblings.
            guard let data = try? files.read(pbxproj) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            guard wanted.contains(where: { text.contains("productName = \($0);") || text.contains("productName = \"\($0)\";") }),
                  let other = try? XcodeProject(data: data, file: files.display(pbxproj), projectPath: candidate) else { continue }
            for target in other.targets where target.kind == .framework && wanted.contains(target.name) {
                wanted.remove(target.name)
                let sources = XcodeDiscovery.swiftSources(of: target, in: other, data: data, files: files)
                found += sources
                discovery.fact("\(Plural.count(sources.count, "Swift file")) from \(target.name).framework, built by \(files.display(candidate)), which the app links",
                               origin: "PBXFrameworksBuildPhase", at: FileLocation(file: files.display(pbxproj), line: target.line))
            }
        }
        return found
    }

    /// `.xcodeproj` folders under the root, nearest first, never in dependency or build folders.
    private func projects(besides project: String) -> [String] {
        var result: [String] = []
        var level = ["."]
        for _ in 0...Self.maxDepth {
            var next: [String] = []
            for folder in level {
                guard let entries = try? files.fileSystem.entries(in: files.absolute(folder)) else { continue }
                for entry in entries.sorted(by: { $0.name < $1.name }) where entry.isFolder && !entry.name.hasPrefix(".") {
                    let path = AppFiles.join(folder, entry.name)
                    if entry.name.hasSuffix(".xcodeproj") {
                        if path != project, files.exists(AppFiles.join(path, "project.pbxproj")) { result.append(path) }
                    } else if !AppDiscovery.skipped.contains(entry.name), !entry.name.hasSuffix(".xcworkspace") {
                        next.append(path)
                    }
                }
            }
            if result.count >= Self.maxProjects { break }
            level = next
        }
        return Array(result.prefix(Self.maxProjects))
    }
}
