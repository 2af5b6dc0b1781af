import Foundation
import Manifest

/// The no-op rebuild: the last build's questions to the file system are asked again (`FileTrace`),
/// reading only the files whose signature changed, and the config (one small file) is read for
/// what the pages depend on besides files. The same digest as the last build, and its output still
/// whole, mean there is nothing to do; anything else means a full `load`.
enum UpToDateCheck {
    /// The number of apps when nothing changed; nil otherwise.
    static func appCount(_ previous: BuildCache, _ state: inout BuildState, _ options: BuildOptions) -> Int? {
        guard let traces = previous.traces, traces.count == 2 else { return nil }
        let recorder = RecordingFileSystem(options.fileSystem)
        let templateRecorder = RecordingFileSystem(options.templateFileSystem)
        guard traces[0].replay(into: recorder, inside: [options.projectRoot]),
              traces[1].replay(into: templateRecorder, inside: [options.projectRoot] + (options.templatesDirectory.map { [$0] } ?? [])),
              let (config, problems) = try? ConfigLoader(fileSystem: options.fileSystem).loadCollecting(siteDirectory: options.siteDirectory),
              problems.isEmpty,
              let (environment, range) = try? BuildStep.environment(config, &state, options) else { return nil }
        let digest = InputDigest.compute(record: recorder.record + templateRecorder.record + environment, options: options, summaryRange: range)
        guard digest == previous.inputDigest, previous.outputIsWhole(options.outputDirectory) else { return nil }
        state.inputDigest = digest
        return config.apps.count
    }
}
