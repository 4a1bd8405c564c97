import AHAPCodec
import CCivetWeb
import Dispatch
import FoundationEssentials
import FoundationStandIns
import Synchronization
import Glibc

/// A request as civetweb parsed it: method, decoded path, raw query, headers and (once admitted) the body.
/// A value; thread-safe.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The URL-decoded path, without the query (`/api/status`).
    package var path: String
    /// The raw query after `?` ("" when none).
    package var query: String
    /// Header values by lower-cased name (the first of repeated headers).
    package var headers: [String: String]
    /// `Content-Length`, or nil when the request gave none.
    package var contentLength: Int?
    /// The body, read after ``HTTPHandler/bodyLimit(for:)`` admitted it.
    package var body = Data()

    package init(method: String, path: String, query: String, headers: [String: String], contentLength: Int?) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.contentLength = contentLength
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The decoded value of query parameter `name` (civetweb's `mg_get_var2`), or nil when absent.
    package func queryValue(_ name: String) -> String? {
        guard !query.isEmpty else { return nil }
        var buffer = [CChar](repeating: 0, count: max(query.utf8.count + 1, 16))
        let length = query.withCString { mg_get_var2($0, strlen($0), name, &buffer, buffer.count, 0) }
        guard length >= 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A response: status, type, extra headers and body. A value; thread-safe.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var contentType: String
    package var headers: [(name: String, value: String)] = []
    package var body: Data

    package init(status: Int, contentType: String, body: Data, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A JSON answer with `object` (plain values, as `JSONObjects` writes them) as its body.
    package static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data = Data(((try? JSONObjects.text(object)) ?? "{}").utf8)
        return HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: data)
    }

    /// A refusal: `{"error": message}` with `status`.
    package static func error(_ status: Int, _ message: String, extra: [String: Any] = [:]) -> HTTPResponse {
        var object = extra
        object["error"] = message
        return json(object, status: status)
    }
}

/// One WebSocket connection of civetweb, as a handle the studio keeps while it is open. Sending is only
/// done under the owner's lock (``EventHub``), so civetweb never sees two writers at once.
package final class WebSocketClient: @unchecked Sendable {
    let connection: OpaquePointer

    init(connection: OpaquePointer) { self.connection = connection }

    /// Sends one text message; false when the connection failed (closed, or not reading within civetweb's
    /// `request_timeout_ms`).
    func send(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            mg_websocket_write(connection, Int32(MG_WEBSOCKET_OPCODE_TEXT), bytes.baseAddress, bytes.count) > 0
        }
    }
}

/// What a server's owner decides for each request. Called on civetweb's worker threads, several at once.
package protocol HTTPHandler: AnyObject, Sendable {
    /// The largest body `request` may carry, or a refusal sent before anything is read (401, 403, 404, …).
    func bodyLimit(for request: HTTPRequest) -> Result<Int, HTTPError>
    /// The answer to an admitted request whose body has been read.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// nil to accept a WebSocket upgrade of `request`, else the refusal to send.
    func refusal(ofWebSocket request: HTTPRequest) -> HTTPResponse?
    /// A WebSocket connection is open.
    func webSocketOpened(_ client: WebSocketClient)
    /// A WebSocket connection closed; `client` must not be used after this returns.
    func webSocketClosed(_ client: WebSocketClient)
}

/// A refusal carried as an error.
package struct HTTPError: Error, Sendable {
    package var response: HTTPResponse
    /// The one-line message of the answer's `error`.
    package let message: String
    package init(_ status: Int, _ message: String, extra: [String: Any] = [:]) {
        response = .error(status, message, extra: extra)
        self.message = message
    }
}

/// A civetweb server (HTTP/1.1 and WebSocket) on one address, answering every path through an ``HTTPHandler``
/// and WebSockets at `webSocketPath`. civetweb parses and frames everything; this type only adapts its
/// callbacks. Start and stop from one thread; the handler is called on civetweb's threads.
package final class HTTPServer: @unchecked Sendable {
    private let context: OpaquePointer
    private let handler: Unmanaged<HandlerBox>
    /// The port bound (the one chosen by the system when 0 was asked for).
    package let port: Int
    /// The address `stop()` connects to, to wake civetweb's listener: the host, or loopback for a wildcard.
    private let wakeHost: String

    private final class HandlerBox {
        let handler: any HTTPHandler
        var clients: [OpaquePointer: WebSocketClient] = [:]
        let lock = Locked(())
        init(_ handler: any HTTPHandler) { self.handler = handler }
    }

    /// Starts listening on `host`:`port` (0: a free port) with `threads` worker threads (each open WebSocket
    /// holds one).
    /// - Throws: ``StudioStartError`` with civetweb's reason (port in use, address not available).
    package init(host: String, port: Int, threads: Int, webSocketPath: String, handler: any HTTPHandler) throws {
        let box = Unmanaged.passRetained(HandlerBox(handler))
        self.handler = box
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        // tcp_nodelay: a response goes out as civetweb writes it (headers, then body). With Nagle's algorithm the
        // body waited for the client's delayed ACK of the headers: 40 ms added to every answer the page waits for.
        let options = [
            "listening_ports", address, "num_threads", "\(threads)", "request_timeout_ms", "5000",
            "enable_keep_alive", "yes", "keep_alive_timeout_ms", "5000", "websocket_timeout_ms", "3600000",
            "tcp_nodelay", "1",
        ]
        var callbacks = mg_callbacks()
        callbacks.log_message = { _, _ in 1 }  // civetweb prints nothing of its own
        var errorCode: UInt32 = 0
        var errorText = [CChar](repeating: 0, count: 256)
        let cOptions = options.map { strdup($0) } + [nil]
        defer { cOptions.forEach { free($0) } }
        let started: OpaquePointer? = withUnsafePointer(to: &callbacks) { callbacksPointer in
            cOptions.map { UnsafePointer($0) }.withUnsafeBufferPointer { optionPointers in
                var optionArray = Array(optionPointers)
                return optionArray.withUnsafeMutableBufferPointer { buffer in
                    errorText.withUnsafeMutableBufferPointer { text in
                        withUnsafeMutablePointer(to: &errorCode) { code in
                            var initData = mg_init_data(
                                callbacks: callbacksPointer, user_data: nil, configuration_options: buffer.baseAddress)
                            var error = mg_error_data(code: code, text: text.baseAddress, text_buffer_size: text.count)
                            return mg_start2(&initData, &error)
                        }
                    }
                }
            }
        }
        guard let started else {
            box.release()
            let reason = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw StudioStartError(message: "cannot listen on \(address): \(reason.isEmpty ? "civetweb could not start" : reason)")
        }
        context = started
        var ports = [mg_server_port](repeating: mg_server_port(), count: 4)
        let count = mg_get_server_ports(started, Int32(ports.count), &ports)
        self.port = count > 0 ? Int(ports[0].port) : port
        wakeHost = host == "0.0.0.0" || host.isEmpty ? "127.0.0.1" : host == "::" ? "::1" : host
        let data = box.toOpaque()
        mg_set_request_handler(started, "/", Self.requestCallback, data)
        mg_set_websocket_handler(
            started, webSocketPath, Self.connectCallback, Self.readyCallback, Self.dataCallback, Self.closeCallback, data)
    }

    /// Stops the server: closes every connection and waits for civetweb's threads (a few milliseconds).
    package func stop() {
        // civetweb's threads see the stop flag only when their poll returns, which without traffic takes up to
        // 2 s (civetweb's SOCKET_TIMEOUT_QUANTUM): the listener's poll of the listening socket, and a worker's of
        // an idle keep-alive connection or an open WebSocket. mg_stop runs on a thread of its own while this one,
        // every 20 ms, connects to the listening socket and shuts down the server's connections to wake them.
        let stopped = DispatchSemaphore(value: 0)
        Threads.detach { [self] in
            mg_stop(context)
            stopped.signal()
        }
        while stopped.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            wakeListener()
            shutDownConnections()
        }
        handler.release()
    }

    /// Shuts down (both ways) every connected socket of this process whose local port is the server's: the
    /// connections civetweb's workers wait on. Their poll returns at once, and civetweb closes them.
    private func shutDownConnections() {
        guard let descriptors = FileSystem.directoryEntries("/proc/self/fd") else { return }
        for descriptor in descriptors.compactMap({ Int32($0) }) {
            var local = sockaddr_storage()
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            var peerLength = length
            let isOurs = withUnsafeMutablePointer(to: &local) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
            } && Self.port(of: local) == port
            let isConnected = withUnsafeMutablePointer(to: &peer) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &peerLength) == 0 }
            }
            if isOurs && isConnected { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// The port of an IPv4 or IPv6 socket address, or nil for another family.
    private static func port(of address: sockaddr_storage) -> Int? {
        var copy = address
        return withUnsafePointer(to: &copy) { pointer in
            switch Int32(address.ss_family) {
            case AF_INET: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default: nil
            }
        }
    }

    /// Opens a connection to the listening socket and closes it again; waits at most 100 ms for the connect.
    private func wakeListener() {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(wakeHost, String(port), &hints, &found) == 0, let address = found else { return }
        defer { freeaddrinfo(address) }
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(address.pointee.ai_family, socketType, 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 && errno == EINPROGRESS {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, 100)
        }
    }

    // MARK: civetweb callbacks

    private static func box(_ data: UnsafeMutableRawPointer?) -> HandlerBox {
        Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue()
    }

    /// The request head of `connection` (civetweb's `mg_request_info`).
    private static func head(of connection: OpaquePointer) -> HTTPRequest {
        let info = mg_get_request_info(connection)!.pointee
        var headers: [String: String] = [:]
        withUnsafeBytes(of: info.http_headers) { raw in
            let list = raw.bindMemory(to: mg_header.self)
            for index in 0..<Int(max(0, min(info.num_headers, Int32(list.count)))) {
                guard let name = list[index].name, let value = list[index].value else { continue }
                let key = String(cString: name).lowercased()
                if headers[key] == nil { headers[key] = String(cString: value) }
            }
        }
        return HTTPRequest(
            method: info.request_method.map { String(cString: $0) } ?? "",
            path: info.local_uri.map { String(cString: $0) } ?? "/",
            query: info.query_string.map { String(cString: $0) } ?? "",
            headers: headers, contentLength: info.content_length >= 0 ? Int(info.content_length) : nil)
    }

    private static let requestCallback: mg_request_handler = { connection, data in
        guard let connection else { return 0 }
        let handler = box(data).handler
        var request = head(of: connection)
        let response: HTTPResponse
        switch handler.bodyLimit(for: request) {
        case .failure(let refusal):
            response = refusal.response
        case .success(let limit):
            if let length = request.contentLength, length > limit {
                response = .error(413, "the body is \(length) bytes; the limit here is \(limit) bytes")
            } else {
                switch readBody(connection, limit: limit) {
                case .some(let body):
                    request.body = body
                    response = handler.respond(to: request)
                case .none:
                    response = .error(413, "the body is over the limit here, \(limit) bytes")
                }
            }
        }
        send(response, on: connection)
        return Int32(response.status)
    }

    /// Reads the body, at most `limit` bytes; nil when there is more.
    private static func readBody(_ connection: OpaquePointer, limit: Int) -> Data? {
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = mg_read(connection, &buffer, buffer.count)
            if count <= 0 { return body }
            body.append(contentsOf: buffer[0..<Int(count)])
            if body.count > limit { return nil }
        }
    }

    private static func send(_ response: HTTPResponse, on connection: OpaquePointer) {
        mg_response_header_start(connection, Int32(response.status))
        mg_response_header_add(connection, "Content-Type", response.contentType, -1)
        mg_response_header_add(connection, "Content-Length", "\(response.body.count)", -1)
        mg_response_header_add(connection, "Cache-Control", "no-store", -1)
        mg_response_header_add(connection, "X-Content-Type-Options", "nosniff", -1)
        for header in response.headers { mg_response_header_add(connection, header.name, header.value, -1) }
        mg_response_header_send(connection)
        response.body.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress, bytes.count > 0 { _ = mg_write(connection, base, bytes.count) }
        }
    }

    private static let connectCallback: mg_websocket_connect_handler = { connection, data in
        guard let connection else { return 1 }
        guard let refusal = box(data).handler.refusal(ofWebSocket: head(of: connection)) else { return 0 }
        send(refusal, on: connection)
        return 1
    }

    private static let readyCallback: mg_websocket_ready_handler = { connection, data in
        guard let connection else { return }
        let box = box(data)
        let client = WebSocketClient(connection: connection)
        box.lock.withLock { _ in box.clients[connection] = client }
        box.handler.webSocketOpened(client)
    }

    /// Messages from the page are not used; the connection stays open (1) until the client closes it.
    private static let dataCallback: mg_websocket_data_handler = { _, _, _, _, _ in 1 }

    private static let closeCallback: mg_websocket_close_handler = { connection, data in
        guard let connection else { return }
        let box = box(data)
        guard let client = box.lock.withLock({ _ in box.clients.removeValue(forKey: connection) }) else { return }
        box.handler.webSocketClosed(client)
    }
}

/// The server could not start.
package struct StudioStartError: Error, Sendable {
    package var message: String
}
