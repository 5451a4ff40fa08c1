import GRPCCore
import KarcAttachProtocol
import Logging

/// Lets in only calls that carry the endpoint's token (`karc-token`); logs
/// each refusal with the peer, never with what it sent.
struct TokenCheck: ServerInterceptor {
    let token: String
    let tokenFile: String
    let logger: Logger

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>,
        context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        let given = Array(request.metadata[stringValues: AttachProtocol.tokenKey])
        guard given.count == 1, AttachToken.matches(given[0], token) else {
            logger.warning(
                "refused an attach without the right token",
                metadata: ["peer": "\(context.peerName)", "token": given.isEmpty ? "missing" : "wrong"])
            throw RPCError(
                code: .unauthenticated,
                message: "\(given.isEmpty ? "no token" : "wrong token") (the app's token is in \(tokenFile))")
        }
        return try await next(request, context)
    }
}
