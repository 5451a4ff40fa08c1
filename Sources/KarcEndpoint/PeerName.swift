import GRPCCore

extension ServerContext {
    /// Who called, as a log names them: an address and port over TCP; over
    /// the Unix socket, whose peers have no address of their own (the
    /// transport names the socket itself), a process of the socket's user.
    var peerName: String {
        let peer = remotePeer
        guard peer.hasPrefix("unix:") else { return peer }
        return "a process of this user, on \(peer)"
    }
}
