import Foundation
import PackagePlugin

/// Compiles the package's `Templates/` folder into the Report module (`BuiltInTemplates`), and
/// re-runs whenever a template changes.
@main
struct EmbedTemplatesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        let files = try FileManager.default.contentsOfDirectory(at: templates, includingPropertiesForKeys: nil)
            .filter { file in [".mustache", ".css", ".svg", ".png"].contains { file.lastPathComponent.hasSuffix($0) } }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInTemplates.swift")
        return [.buildCommand(displayName: "Embedding \(files.count) templates",
                              executable: try context.tool(named: "EmbedTemplates").url,
                              arguments: [output.path] + files.map { $0.path },
                              inputFiles: files, outputFiles: [output])]
    }
}
