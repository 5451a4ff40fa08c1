import NIOHTTP1

/// What the inspector answers to a request, decided from its head alone:
/// who gets in (``InspectorServer``) and which file.
struct InspectorRequests: Sendable {
    let token: String

    struct Response {
        let status: HTTPResponseStatus
        let type: String
        let body: String
    }

    /// What a page of this server may load and reach: its own scripts and
    /// styles, its own WebSocket, downloads it makes (`blob:`); nothing else.
    static func contentSecurityPolicy(port: Int) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
            + "connect-src ws://127.0.0.1:\(port) ws://localhost:\(port); base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// Whether `head` asks for the events' WebSocket.
    static func isEvents(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET && split(head.uri).path == "/events"
    }

    /// Why a WebSocket to the events is not let in (nil: it is): the host,
    /// the token, and (from a page) this server's own origin.
    func eventsRefusal(_ head: HTTPRequestHead, port: Int) -> String? {
        guard isOwnHost(head, port: port) else { return "karc inspector: this server answers http://127.0.0.1:\(port)/ only" }
        guard hasToken(Self.split(head.uri).query) else { return "karc inspector: the events need the token of the inspector's URL" }
        guard isOwnOrigin(head, port: port) else { return "karc inspector: the events are for pages of this inspector only" }
        return nil
    }

    func response(to head: HTTPRequestHead, port: Int) -> Response {
        guard isOwnHost(head, port: port) else {
            return Self.text(.forbidden, "karc inspector: this server answers http://127.0.0.1:\(port)/ only")
        }
        guard head.method == .GET || head.method == .HEAD else {
            return Self.text(.methodNotAllowed, "karc inspector: only GET is answered here")
        }
        let (path, query) = Self.split(head.uri)
        switch path {
        case "/", "/index.html":
            guard hasToken(query) else {
                return Self.text(
                    .forbidden, "karc inspector: open the URL karc printed (http://127.0.0.1:\(port)/?token=…); this one has no token or another one")
            }
            return Self.file("index.html")
        case "/events":
            // Reached only by a request that is no WebSocket.
            return Self.text(.badRequest, "karc inspector: /events is a WebSocket (the page opens it)")
        default:
            let name = String(path.dropFirst())
            guard InspectorPage.files[name] != nil, name != "index.html" else {
                return Self.text(.notFound, "karc inspector: no \(path) here")
            }
            return Self.file(name)
        }
    }

    private static func file(_ name: String) -> Response {
        // `name` is one of the page's files: the caller looked it up.
        let file = InspectorPage.files[name] ?? (type: "text/plain; charset=utf-8", body: "")
        return Response(status: .ok, type: file.type, body: file.body)
    }

    private static func text(_ status: HTTPResponseStatus, _ body: String) -> Response {
        Response(status: status, type: "text/plain; charset=utf-8", body: body + "\n")
    }

    /// The path and the query of `uri` (`/events?token=…`).
    private static func split(_ uri: String) -> (path: String, query: Substring) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), uri[uri.index(after: mark)...])
    }

    /// A name a DNS rebinding could give this address is refused: only the loopback names, with this port.
    private func isOwnHost(_ head: HTTPRequestHead, port: Int) -> Bool {
        guard let host = head.headers["host"].first?.lowercased() else { return false }
        return host == "127.0.0.1:\(port)" || host == "localhost:\(port)"
    }

    private func isOwnOrigin(_ head: HTTPRequestHead, port: Int) -> Bool {
        guard let origin = head.headers["origin"].first?.lowercased() else { return true }  // not a page: a program with the token
        return origin == "http://127.0.0.1:\(port)" || origin == "http://localhost:\(port)"
    }

    /// Whether the query carries `token=` this inspector's token, compared in constant time.
    private func hasToken(_ query: Substring) -> Bool {
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            let given = Array(pair.dropFirst("token=".count).utf8)
            let expected = Array(token.utf8)
            guard given.count == expected.count else { return false }
            return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
        return false
    }
}
