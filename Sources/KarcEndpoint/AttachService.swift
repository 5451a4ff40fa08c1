import Foundation
import GRPCCore
import KarcAsync
import KarcAttachProtocol
import KarcSession
import KarcSessionTrellis
import Logging

/// One attached shell's session, run in the app:
///
/// ```
/// shell ──Hello, Lines, Interrupt, FileReply──▶ reader ──▶ RemoteLines / RemoteEditor / RemoteHost
///                                                              │
///                              Shell.runSession (the same code as a local shell)
///                                                              │ OutputSink(forwarding:)
/// shell ◀──Welcome, Output, PromptMessage, FileRequest, Exit── writer ◀── Outbox
/// ```
///
/// The session observes the cluster itself (its own bounded buffer: a shell
/// that falls behind is told `lost N records`), so no shell ever makes the
/// app's sends wait.
struct AttachService: Karc_Attach_V1_Attach.SimpleServiceProtocol {
    let shared: EndpointState

    func session(
        request: RPCAsyncSequence<Karc_Attach_V1_ShellMessage, any Error>,
        response: RPCWriter<Karc_Attach_V1_AppMessage>,
        context: ServerContext
    ) async throws {
        guard shared.admit() else {
            let limit = shared.configuration.maxShells
            let attached = limit == 1 ? "1 shell is" : "\(limit) shells are"
            // The app's log says so too: whoever runs it learns why a teammate could not attach.
            shared.logger.notice(
                "refused a shell: the limit of attached shells is reached", metadata: ["peer": "\(context.peerName)", "maxShells": "\(limit)"])
            throw RPCError(code: .resourceExhausted, message: "\(attached) attached to \(shared.name) already (its limit); detach one and try again")
        }
        defer { shared.release() }
        // One task reads the connection (its iterator stays in that task);
        // this one takes what it read, in order.
        let (incoming, received) = AsyncThrowingStream.makeStream(of: Karc_Attach_V1_ShellMessage.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await message in request { received.yield(message) }
                    received.finish()
                } catch {
                    received.finish(throwing: error)
                }
            }
            var messages = incoming.makeAsyncIterator()
            guard let first = try await messages.next(), case .hello(let hello)? = first.kind else {
                throw RPCError(code: .invalidArgument, message: "an attach session starts with Hello")
            }
            guard hello.protocolVersion == AttachProtocol.version else {
                throw RPCError(
                    code: .failedPrecondition,
                    message:
                        "this karc speaks attach protocol \(hello.protocolVersion), the app \(shared.name) speaks \(AttachProtocol.version): attach with the karc of the app's karc version"
                )
            }
            let options: ShellOptions
            do {
                options = try ShellOptions(attaching: hello.options)
            } catch {
                throw RPCError(code: .invalidArgument, message: "\(error)")
            }
            try await response.write(
                .with {
                    $0.welcome = .with {
                        $0.protocolVersion = AttachProtocol.version
                        $0.clusterName = shared.name
                        $0.catalogJson = shared.catalogJSON
                        $0.readOnly = shared.configuration.readOnly
                        $0.lineCredit = UInt64(shared.configuration.lineCredit)
                        $0.maxMessageBytes = UInt64(shared.configuration.maxMessageBytes)
                    }
                })
            shared.logger.info("a shell attached", metadata: ["peer": "\(context.peerName)", "input": "\(hello.input)"])
            let session = AttachedSession(shared: shared, hello: hello, options: options)
            guard let id = shared.register(stop: { session.stopByApp() }) else {
                throw RPCError(code: .unavailable, message: "\(shared.name) is shutting down")
            }
            defer { shared.unregister(id) }
            group.addTask { await session.run(response: response) { received.finish() } }
            // Until the session's last message is written (which ends `incoming`) or the shell is
            // gone. Cancelled (the server stops): the session ends as when the app stops it.
            try await withTaskCancellationHandler {
                do {
                    while let message = try await messages.next() { try session.receive(message) }
                    session.inputEnded()
                } catch let refusal as RPCError where refusal.code == .resourceExhausted {
                    // Beyond its credit: the session ends, and the shell is told why.
                    shared.logger.warning("a shell was refused", metadata: ["peer": "\(context.peerName)", "reason": "\(refusal.message)"])
                    session.shellGone()
                    // The session's writer may be blocked on a shell that reads nothing (HTTP/2 flow
                    // control); the group would wait for it, and the refusal never reach the shell.
                    group.cancelAll()
                    throw refusal
                } catch {
                    session.shellGone()
                }
                try await group.next()
            } onCancel: {
                session.stopByApp()
            }
            group.cancelAll()
            if session.wasStoppedByApp { throw RPCError(code: .unavailable, message: "\(shared.name) is shutting down") }
            shared.logger.info("a shell detached", metadata: ["peer": "\(context.peerName)", "status": "\(session.status)"])
        }
    }
}
