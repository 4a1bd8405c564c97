import AHAPCodec
import Dispatch
import FoundationEssentials
import FoundationStandIns
import Synchronization

/// The open WebSocket connections of `/api/events` and the messages sent to them. Messages are written
/// under one lock, so a connection never sees two writers, by a serial queue of their own, so neither the
/// position clock nor a request ever waits for a slow client; a connection whose write fails (closed, or
/// not read within civetweb's timeout) is dropped from the list and never written again. Thread-safe.
package final class EventHub: @unchecked Sendable {
    private let lock = Locked(())
    private var clients: [ObjectIdentifier: WebSocketClient] = [:]
    private let sender = DispatchQueue(label: "thrum-studio-events")

    package init() {}

    /// Adds `client` and sends it `greeting` first.
    func add(_ client: WebSocketClient, greeting: [String: Any]) {
        let text = Self.text(greeting)
        lock.withLock { _ in
            if client.send(text) { clients[ObjectIdentifier(client)] = client }
        }
    }

    func remove(_ client: WebSocketClient) {
        lock.withLock { _ in _ = clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// Whether a connection is open (a page is listening).
    var hasClients: Bool { lock.withLock { _ in !clients.isEmpty } }

    /// Sends `message` (a JSON object) to every connection, in order, without waiting.
    func broadcast(_ message: [String: Any]) {
        let text = Self.text(message)
        sender.async {
            self.lock.withLock { _ in
                for (key, client) in self.clients where !client.send(text) { self.clients.removeValue(forKey: key) }
            }
        }
    }

    static func text(_ message: [String: Any]) -> String {
        (try? JSONObjects.text(message)) ?? "{}"
    }
}
