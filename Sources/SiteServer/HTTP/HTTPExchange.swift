/// Answers requests; the server calls it once per connection.
protocol RequestHandler: Sendable {
    func respond(to request: RequestHead) async -> Response
}

/// One connection, one request: read the head before `headTimeout`, answer it, send the
/// answer (files piece by piece), then linger briefly so the client reads the answer rather
/// than a reset caused by request bytes left unread. Every path ends with the socket closed.
struct HTTPExchange: Sendable {
    let socket: ConnectionSocket
    let slot: UInt64
    let slots: ConnectionSlots
    let limits: ServeLimits
    let handler: any RequestHandler

    func run() async {
        defer {
            socket.close()
            slots.release(slot)
        }
        let response: Response
        var headOnly = false
        do {
            let head = try await readHead()
            // Busy from here on: no longer among the idle connections dropped to make room.
            guard slots.setWaiting(slot, false) else { return }
            headOnly = head.method == "HEAD"
            response = await handler.respond(to: head)
        } catch let refusal as HeadRefusal {
            response = .text(refusal.status, "\(refusal.status.code) \(refusal.status.reason)\n")
        } catch is ConnectionSocket.TimedOut {
            // A slow (or silent) client: one attempt to say so, then it is dropped.
            let timeout = Response.text(.requestTimeout, "408 Request Timeout\n")
            try? await socket.send(timeout.head() + Self.bytes(of: timeout.body), idleTimeout: .milliseconds(100))
            return
        } catch {
            return // The client left, was dropped to make room, or the server is stopping.
        }
        do { try await send(response, headOnly: headOnly) } catch { return }
        await linger()
    }

    private func readHead() async throws -> RequestHead {
        var parser = RequestHeadParser(limits: limits)
        let deadline = ContinuousClock.now + limits.headTimeout
        while true {
            let bytes = try await socket.receive(upTo: min(16 * 1024, parser.room), until: deadline)
            if bytes.isEmpty { throw ConnectionSocket.Broken() }
            if let head = try parser.append(bytes) { return head }
        }
    }

    private func send(_ response: Response, headOnly: Bool) async throws {
        let head = response.head()
        switch response.body {
        case .bytes(let data):
            try await socket.send(headOnly ? head : head + data, idleTimeout: limits.sendTimeout)
        case .file(let file, let insert, let offset):
            try await socket.send(head, idleTimeout: limits.sendTimeout)
            guard !headOnly else { return }
            var buffer = [UInt8](repeating: 0, count: max(1, limits.chunkSize))
            let split = min(offset ?? file.size, file.size)
            try await sendFile(file, from: 0, to: split, buffer: &buffer)
            try await socket.send(Array(insert), idleTimeout: limits.sendTimeout)
            try await sendFile(file, from: split, to: file.size, buffer: &buffer)
        }
    }

    /// The only copy of file data in memory is `buffer`, one chunk, whatever the file's size.
    private func sendFile(_ file: OpenFile, from start: Int, to end: Int, buffer: inout [UInt8]) async throws {
        var offset = start
        while offset < end {
            try Task.checkCancellation()
            let count = file.read(into: &buffer, at: offset, count: min(buffer.count, end - offset))
            // The file shrank since fstat: Content-Length cannot be met, so cut the connection.
            guard count > 0 else { throw ConnectionSocket.Broken() }
            try await socket.send(buffer, count: count, idleTimeout: limits.sendTimeout)
            offset += count
        }
    }

    /// Half-closes, then reads and discards what the client still sends (a body nobody asked
    /// for, the rest of an oversized head) for a bounded time and amount.
    private func linger() async {
        socket.finishSending()
        guard slots.setWaiting(slot, true) else { return }
        let deadline = ContinuousClock.now + limits.lingerTimeout
        var drained = 0
        while drained < 1 << 20 {
            guard let bytes = try? await socket.receive(upTo: 16 * 1024, until: deadline), !bytes.isEmpty else { return }
            drained += bytes.count
        }
    }

    private static func bytes(of body: Response.Body) -> [UInt8] {
        if case .bytes(let data) = body { return Array(data) }
        return []
    }
}
