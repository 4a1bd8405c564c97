import FoundationEssentials
import FoundationStandIns

/// Who may talk to the studio (issue 25 §9): the token (query `token=`, then the cookie, then
/// `Authorization: Bearer`), a `Host` naming the bound address or `localhost`, and an `Origin`, when one is
/// sent, of the studio itself. A value; thread-safe.
package struct StudioAccess: Sendable {
    package let token: String
    /// The address the server is bound to (`127.0.0.1` unless `--host`).
    package let host: String
    package let port: Int

    package init(token: String, host: String, port: Int) {
        self.token = token
        self.host = host
        self.port = port
    }

    /// A new random token: 32 hex digits from the system's generator.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(cFormat: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The cookie carrying the token; named after the port, as browsers share cookies between ports.
    package var cookieName: String { "thrum_studio_\(port)" }

    /// The names this server may be reached by (`Host` without the port, brackets removed).
    private var hostNames: Set<String> { [host.lowercased(), "localhost"] }

    /// Whether a `Host` header names this server: a known name, with this port or none.
    func allowsHost(_ header: String?) -> Bool {
        guard let header = header?.lowercased(), !header.isEmpty else { return false }
        var name = header
        var portText: String?
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return false }
            name = String(header[header.index(after: header.startIndex)..<close])
            let rest = header[header.index(after: close)...]
            if rest.hasPrefix(":") { portText = String(rest.dropFirst()) } else if !rest.isEmpty { return false }
        } else if let colon = header.lastIndex(of: ":") {
            name = String(header[..<colon])
            portText = String(header[header.index(after: colon)...])
        }
        if let portText, Int(portText) != port { return false }
        return hostNames.contains(name)
    }

    /// Whether an `Origin` header (absent: a script, not a page) is this server's own.
    func allowsOrigin(_ header: String?) -> Bool {
        guard let header else { return true }
        let lower = header.lowercased()
        guard lower.hasPrefix("http://") else { return false }
        return allowsHost(String(lower.dropFirst(7)))
    }

    /// How the request carries the right token: by query (the answer sets the cookie), else cookie or
    /// Bearer; nil when it carries none or a wrong one.
    enum Credential { case query, cookieOrBearer }

    func credential(of request: HTTPRequest) -> Credential? {
        if let given = request.queryValue("token") { return Self.same(given, token) ? .query : nil }
        if let cookies = request.header("cookie") {
            for part in cookies.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
                if pair.count == 2, pair[0] == cookieName, Self.same(pair[1], token) { return .cookieOrBearer }
            }
        }
        if let authorization = request.header("authorization"), authorization.hasPrefix("Bearer "),
            Self.same(String(authorization.dropFirst(7)).trimmingSpaces, token)
        {
            return .cookieOrBearer
        }
        return nil
    }

    /// The refusal for `request`, or nil when it may go on: 403 for a foreign Host or Origin, 401 without
    /// the token.
    func refusal(of request: HTTPRequest) -> HTTPError? {
        guard allowsHost(request.header("host")) else {
            return HTTPError(403, "the Host header must name \(host) or localhost (this refuses DNS rebinding)")
        }
        guard allowsOrigin(request.header("origin")) else {
            return HTTPError(403, "requests from another origin (\(request.header("origin") ?? "")) are refused")
        }
        guard credential(of: request) != nil else {
            return HTTPError(401, "the studio's token is missing or wrong: open the address 'thrum studio' printed")
        }
        return nil
    }

    /// The `Set-Cookie` value that lets the page's own requests carry the token.
    var cookie: String { "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
