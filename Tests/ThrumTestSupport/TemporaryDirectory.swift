import Foundation

/// A new, empty folder under the system's temporary folder, removed with everything in it when the object
/// goes away. Its name holds `label` and a UUID, so tests running at once never share one.
public final class TemporaryDirectory: Sendable {
    /// The folder's full path.
    public let path: String

    /// Creates `…/thrum-LABEL-UUID`. A system without a writable temporary folder stops the test process,
    /// saying so: no test can run there.
    public init(_ label: String = "test") {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-\(label)-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create the temporary folder \(path): \(error)")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder, with its intermediate folders created (the file itself is not).
    /// A folder that cannot be created shows as the error of the first write to the path.
    public func file(_ name: String) -> String {
        let full = path + "/" + name
        try? FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return full
    }

    /// Writes `text` (UTF-8) to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let full = file(name)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    /// The path of subfolder `name`, created (a failure shows as the error of the first use of the path).
    public func folder(_ name: String) -> String {
        let full = path + "/" + name
        try? FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }
}
