import Foundation

/// The script `serve` adds to every HTML response (never to files on disk): it polls
/// `/__healthaudit/status`, reloads when a rebuild succeeded, and shows a failed rebuild's
/// diagnostics in a banner over the last good site.
public enum LiveReload {
    public static let statusPath = "/__healthaudit/status"
    /// Present in served HTML only; tests look for it.
    public static let marker = "healthaudit-live-reload"

    /// Inserts the script before the last `</body>`, or appends it when there is none.
    public static func inject(into html: Data, status: BuildStatus) -> Data {
        let script = scriptData(status: status)
        guard let range = html.range(of: Data("</body>".utf8), options: .backwards)
            ?? html.range(of: Data("</BODY>".utf8), options: .backwards) else { return html + script }
        var result = html
        result.replaceSubrange(range.lowerBound..<range.lowerBound, with: script)
        return result
    }

    /// The same place as `inject`, found in a file on disk without reading it whole: served
    /// pages are streamed, the script spliced in at this offset (appended when nil).
    static func insertionOffset(in file: OpenFile, window: Int) -> Int? {
        file.lastOffset(of: Array("</body>".utf8), window: window) ?? file.lastOffset(of: Array("</BODY>".utf8), window: window)
    }

    static func scriptData(status: BuildStatus) -> Data { Data(script(status: status).utf8) }

    /// The state the page was served with is embedded, so the banner shows without a round trip.
    static func script(status: BuildStatus) -> String {
        // JSON inside <script>: `<` escaped so a diagnostic can never close the element.
        let state = String(decoding: status.json, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        return """
        <script id="\(marker)">
        (() => {
          const served = \(state);
          const show = (error) => {
            let banner = document.getElementById("healthaudit-error");
            if (!error) { if (banner) banner.remove(); return; }
            if (!banner) {
              banner = document.createElement("pre");
              banner.id = "healthaudit-error";
              banner.setAttribute("role", "alert");
              banner.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:50vh;overflow:auto;margin:0;padding:12px 16px;background:#7f1d1d;color:#fff;font:13px/1.45 ui-monospace,monospace;white-space:pre-wrap";
              document.body.appendChild(banner);
            }
            banner.textContent = "healthaudit: the last rebuild failed; this is the last good site.\\n\\n" + error;
          };
          show(served.error);
          const poll = async () => {
            try {
              const status = await (await fetch("\(statusPath)", { cache: "no-store" })).json();
              if (status.generation !== served.generation) { location.reload(); return; }
              show(status.error);
            } catch (e) { /* the server is restarting: keep asking */ }
            setTimeout(poll, 500);
          };
          setTimeout(poll, 500);
        })();
        </script>

        """
    }
}
