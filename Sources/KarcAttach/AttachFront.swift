import Foundation
import GRPCCore
import KarcAsync
import KarcAttachProtocol
import KarcShell

/// What the app's session asks of this end: print, show the prompt, read
/// and write files here, page; and the exit status it ends with.
final class AttachFront: Sendable {
    let outgoing = Outgoing()
    private let historyFile: String?
    private let prompting: Bool
    private let editor = KarcMutex<LineEditor?>(nil)
    private let recorder = KarcMutex<(@Sendable (String) -> Void)?>(nil)
    private let seenEvents = KarcMutex<[String]>([])
    private let localFailure = KarcMutex(false)

    init(historyFile: String?, prompting: Bool) {
        self.historyFile = historyFile
        self.prompting = prompting
    }

    /// Something failed on this side (a script line too long to send): the exit status is 1.
    func failedLocally() {
        localFailure.withLock { $0 = true }
    }

    var hasFailedLocally: Bool { localFailure.withLock { $0 } }

    /// Handles the app's messages to the end of the session; its exit status.
    func handle(_ messages: RPCAsyncSequence<Karc_Attach_V1_AppMessage, any Error>) async throws -> Int32 {
        var welcomed = false
        for try await message in messages {
            switch message.kind {
            case .welcome(let welcome):
                guard welcome.protocolVersion == AttachProtocol.version else {
                    throw RPCError(
                        code: .failedPrecondition,
                        message: "the app speaks attach protocol \(welcome.protocolVersion), this karc speaks \(AttachProtocol.version): attach with the karc of the app's karc version")
                }
                welcomed = true
                if prompting { makeEditor(welcome) }
            case .output(let output):
                OutputSink.writeAll(Array(output.text), to: output.stream == .stderr ? STDERR_FILENO : STDOUT_FILENO)
            case .prompt(let prompt):
                await handle(prompt)
            case .fileRequest(let request):
                await handle(request)
            case .exit(let exit):
                outgoing.finish()
                await stopEditor()
                return exit.status
            case nil:
                continue  // from a newer app: nothing this end knows to do
            }
        }
        outgoing.finish()
        await stopEditor()
        throw RPCError(code: .unavailable, message: welcomed ? "the app ended the session without an exit status" : "the app closed the connection")
    }

    private func makeEditor(_ welcome: Karc_Attach_V1_Welcome) {
        let summary = (try? JSONDecoder().decode(CatalogSummary.self, from: welcome.catalogJson)) ?? CatalogSummary(Catalog(targets: []))
        let outgoing = self.outgoing
        let made = LineEditor.forSession(
            named: welcome.clusterName, completer: Completer(catalog: summary, events: { [self] in seenEvents.withLock { $0 } }),
            historyFile: historyFile, interrupt: { outgoing.send(.with { $0.interrupt = .init() }) })
        editor.withLock { $0 = made }
        // The lines typed go to the app as they are entered.
        Task {
            while true {
                await withCheckedContinuation { continuation in made.onInput { continuation.resume() } }
                switch made.take() {
                case .line(let line)?:
                    outgoing.send(.with { $0.lines = .with { $0.lines = [line] } })
                case .endOfInput?:
                    outgoing.send(.with { $0.endOfInput = .init() })
                    return
                case nil:
                    continue
                }
            }
        }
    }

    private func handle(_ prompt: Karc_Attach_V1_PromptMessage) async {
        guard let editor = editor.withLock({ $0 }) else { return }
        switch prompt.kind {
        case .start: editor.start()
        case .resume(let resume):
            seenEvents.withLock { $0 = resume.seenEvents }
            editor.resume(PromptResume(continuing: resume.continuing, remember: resume.remember.isEmpty ? nil : resume.remember))
        case .print(let bytes): editor.print(Array(bytes))
        case .stop: await editor.stop()
        case nil: break
        }
    }

    /// Leaves the terminal as it was (the session ended, or the connection).
    func stopEditor() async {
        guard let editor = editor.withLock({ e -> LineEditor? in
            defer { e = nil }
            return e
        }) else { return }
        await editor.stop()
    }

    private func handle(_ request: Karc_Attach_V1_FileRequest) async {
        let host = LocalHost { await Pager.show($0) }
        var reply = Karc_Attach_V1_FileReply()
        reply.id = request.id
        do {
            switch request.action {
            case .read:
                reply.content = try Self.read(request.path)
            case .write:
                try await host.write(String(decoding: request.content, as: UTF8.self), to: request.path)
            case .record:
                let append = try await host.recorder(appendingTo: request.path)
                recorder.withLock { $0 = append }
            case .append:
                recorder.withLock { $0 }?(String(decoding: request.content, as: UTF8.self))
                return  // not answered
            case .page:
                await host.page(Array(request.content))
            case .UNRECOGNIZED:
                reply.error = "this karc cannot do what the app asks (a newer app?)"
            }
        } catch {
            reply.error = error.message
        }
        outgoing.send(.with { $0.fileReply = reply })
    }

    /// A whole script (`:source`), with the messages a local `:source` gives.
    private static func read(_ path: String) throws(HostError) -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw HostError(errno == ENOENT ? "no such script: \(path)" : "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw HostError("\(path) is a directory, not a script") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HostError("cannot read \(path): not readable")
        }
        guard data.count <= AttachProtocol.defaultMaxMessageBytes - 1024 else {
            throw HostError("\(path) is too large to send to the app (\(data.count) bytes; at most \(AttachProtocol.defaultMaxMessageBytes - 1024))")
        }
        return data
    }
}
