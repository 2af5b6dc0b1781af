import Manifest

/// The app's own JavaScript function around a library status call (`getAuthorizationStatus()`
/// returning what `authorizationStatusFor` said), whose caller decides on its answer whether to
/// read: `if (status === 'sharingDenied') { openSettings(); return; }` before `getLatestStats()`.
/// The status is sharing permission; deciding a read on it is asking HealthKit for read access.
struct StatusWrapperDecidesRead {
    let caller: Int
    let file: JavaScriptFile
    let wrapper: String
    /// `file:line` of the status call inside the wrapper, and of the read the answer decides.
    let status: String
    let read: String

    static func find(_ context: AuditContext) -> [StatusWrapperDecidesRead] {
        let files = context.manifest.javaScriptSources
        let calls = context.javaScriptCalls
        guard calls.contains(where: { $0.kind == .statusCheck }) else { return [] }
        let readers = readingFunctions(files: files, calls: calls)
        var result: [StatusWrapperDecidesRead] = []
        for call in calls where call.kind == .statusCheck {
            let file = files[call.file]
            guard let wrapper = answeringWrapper(call, in: file) else { continue }
            for (caller, callerFile) in wrapper.callers(in: files, like: call, libraryCalls: calls) {
                guard let name = caller.resultName(in: callerFile),
                      let read = readDecided(by: name, after: caller, in: callerFile, readers: readers, calls: calls, files: files) else { continue }
                result.append(StatusWrapperDecidesRead(caller: caller.token, file: callerFile, wrapper: wrapper.name,
                                                       status: place(file, call.token), read: read))
            }
        }
        return result
    }

    static func place(_ file: JavaScriptFile, _ token: Int) -> String {
        "\(file.path.split(separator: "/").last.map(String.init) ?? file.path):\(file.tokens[token].line)"
    }

    /// The function around a status call that returns its answer: the call itself, a name bound to
    /// it, or the status names (`return 'sharingDenied'`) after it, in the same function.
    private static func answeringWrapper(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> AppWrapper? {
        if let direct = AppWrapper.around(call, in: file) { return direct }
        guard let function = JavaScriptBindings.enclosingFunction(of: call.token, in: file), let close = file.partner[function.body] else { return nil }
        let tokens = file.tokens
        let answers = ["sharingDenied", "sharingAuthorized", "notDetermined", "denied", "authorized"]
        let returnsAnswer = ((call.paren + 1)..<close).contains { index in
            guard tokens[index].isIdentifier("return"), index + 1 < close else { return false }
            let value = tokens[index + 1]
            return value.kind == .string && answers.contains(where: value.value.contains)
        }
        return returnsAnswer ? AppWrapper(name: function.name, body: function.body) : nil
    }

    /// The app's functions that read through the library, by name, with the first read's place:
    /// around a library read, or calling such a function (two levels).
    private static func readingFunctions(files: [JavaScriptFile], calls: [JavaScriptHealthKitCall]) -> [String: String] {
        var readers: [String: String] = [:]
        for call in calls where call.kind == .read {
            let file = files[call.file]
            if let function = JavaScriptBindings.enclosingFunction(of: call.token, in: file), readers[function.name] == nil {
                readers[function.name] = place(file, call.token)
            }
        }
        for _ in 0..<2 {
            var more: [String: String] = [:]
            for file in files {
                for index in file.tokens.indices where file.tokens[index].kind == .identifier {
                    guard let read = readers[file.tokens[index].text], file.callParen(after: index) != nil,
                          let function = JavaScriptBindings.enclosingFunction(of: index, in: file), readers[function.name] == nil else { continue }
                    more[function.name] = more[function.name] ?? read
                }
            }
            readers.merge(more) { first, _ in first }
        }
        return readers
    }

    /// An `if` on `name` whose branch leaves (`return`) or reads, with a read after it in the same
    /// function (or in the branch): the read's place.
    private static func readDecided(by name: String, after caller: JavaScriptHealthKitCall, in file: JavaScriptFile, readers: [String: String],
                                    calls: [JavaScriptHealthKitCall], files: [JavaScriptFile]) -> String? {
        let tokens = file.tokens
        // The block the call is in (a callback's body, a `try`): the code its answer can decide.
        var block = file.parent[caller.token]
        while let open = block, !tokens[open].isPunctuator("{") { block = file.parent[open] }
        guard let close = file.partner[caller.paren] else { return nil }
        let end = block.flatMap { file.partner[$0] } ?? tokens.count
        let fileIndex = files.firstIndex { $0.path == file.path }
        func readAt(_ index: Int) -> String? {
            if calls.contains(where: { $0.kind == .read && $0.file == fileIndex && $0.token == index }) { return "the read at \(place(file, index))" }
            if tokens[index].kind == .identifier, let read = readers[tokens[index].text], file.callParen(after: index) != nil {
                return "`\(tokens[index].text)()` at \(place(file, index)), which reads at \(read)"
            }
            return nil
        }
        var index = close + 1
        while index < end {
            defer { index += 1 }
            guard tokens[index].isIdentifier("if"), index + 1 < end, tokens[index + 1].isPunctuator("("), let conditionEnd = file.partner[index + 1],
                  ((index + 2)..<conditionEnd).contains(where: { tokens[$0].isIdentifier(name) }) else { continue }
            // Compared with a sharing answer (not `notDetermined`, which only says whether to ask).
            guard ((index + 2)..<conditionEnd).contains(where: { i in
                let text = tokens[i].value.lowercased()
                return (tokens[i].kind == .string || tokens[i].kind == .identifier) && (text.contains("sharing") || text.contains("denied") || text == "authorized")
            }) else { continue }
            // The branch: a block, or one statement up to `;`.
            var branchEnd = conditionEnd + 1
            if branchEnd < end, tokens[branchEnd].isPunctuator("{"), let blockEnd = file.partner[branchEnd] { branchEnd = blockEnd } else {
                while branchEnd < end, !tokens[branchEnd].isPunctuator(";") { branchEnd += 1 }
            }
            let branch = (conditionEnd + 1)..<min(branchEnd + 1, end)
            if let read = branch.lazy.compactMap(readAt).first { return read }
            guard branch.contains(where: { tokens[$0].isIdentifier("return") }) else { continue }
            if let read = (branch.upperBound..<end).lazy.compactMap(readAt).first { return read }
        }
        return nil
    }
}
