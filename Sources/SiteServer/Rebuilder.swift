import Manifest
import Foundation
import SiteBuild

/// Runs the site pipeline and records the outcome on the status board. A failed build leaves
/// the last good site in place (the writer swaps folders only when complete), so the server
/// keeps serving it with the diagnostics on top.
struct Rebuilder: Sendable {
    let options: BuildOptions
    let board: StatusBoard
    let report: @Sendable ([String]) -> Void

    func rebuild() async {
        if let diagnostics = await build() {
            board.failed(diagnostics.joined(separator: "\n"))
            report(diagnostics + ["build failed: \(Plural.count(diagnostics.count, "problem")); still serving the last good site"])
        } else {
            board.succeeded()
            report(["site built (generation \(board.current.generation)); open pages reload"])
        }
    }

    /// The build is synchronous and CPU-bound: it runs on a Dispatch thread so that the two
    /// threads of the cooperative pool keep answering requests meanwhile. Nil when it succeeded,
    /// else one line per problem.
    private func build() async -> [String]? {
        let options = self.options
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do {
                    try Pipeline.site.run(options)
                    continuation.resume(returning: nil)
                } catch let failure as BuildFailed {
                    continuation.resume(returning: failure.lines(sitePrefix: ""))
                } catch {
                    continuation.resume(returning: ["\(error)"])
                }
            }
        }
    }
}
