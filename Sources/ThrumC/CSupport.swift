import AudioResources
import FoundationEssentials
import Glibc
import Thrum
import ThrumServices

// The C side of libthrum: how handles, strings, lists and errors cross the ABI (include/thrum.h).
// Every exported function catches every Swift error and reports it as a status and a message; handles are
// retained Swift objects behind opaque pointers.

/// `char **error` of the C functions.
public typealias ErrorOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
/// `const char *const *` lists of the C functions.
public typealias StringList = UnsafePointer<UnsafePointer<CChar>?>?

/// A copy of `text` in memory the caller frees with `thrum_free` (malloc'd).
func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
    FileSystemPath.withCString(text) { strdup($0) }
}

/// A C string as Swift text; bytes that are not UTF-8 are kept (``FileSystemPath``), so paths reach the
/// file system unchanged.
func string(_ text: UnsafePointer<CChar>) -> String {
    FileSystemPath.string(fromBytes: UnsafeRawBufferPointer(start: text, count: strlen(text)))
}

/// The strings of a C array of `count` strings; a NULL array is empty.
/// - Throws: a usage failure for a NULL entry.
func strings(_ list: StringList, _ count: Int, what: String) throws(ServiceError) -> [String] {
    guard count > 0 else { return [] }
    guard let list else { throw .usage("\(what): NULL array of \(count) strings") }
    var result: [String] = []
    for index in 0..<count {
        guard let item = list[index] else { throw .usage("\(what): entry \(index) is NULL") }
        result.append(string(item))
    }
    return result
}

/// Clears `*error` (success leaves NULL there).
func clear(_ error: ErrorOut) { error?.pointee = nil }

/// The key of each thread's last status (`thrum_last_status`), made once; the status is kept in the
/// pointer's bits, so setting it allocates nothing.
private let lastStatusKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "libthrum: no thread-specific key left for thrum_last_status")
    return key
}()

/// Records `status` as this thread's last status.
private func setLastStatus(_ status: Int32) {
    pthread_setspecific(lastStatusKey, UnsafeRawPointer(bitPattern: Int(status)))
}

@_cdecl("thrum_last_status")
public func thrum_last_status() -> Int32 {
    Int32(truncatingIfNeeded: Int(bitPattern: pthread_getspecific(lastStatusKey)))
}

/// Runs `body`; a thrown error becomes `*error` (when wanted) and `fallback` is returned with its status.
/// Either way the outcome's status becomes this thread's `thrum_last_status`.
func reporting<T>(_ errorOut: ErrorOut, fallback: (Int32) -> T, _ body: () throws -> T) -> T {
    clear(errorOut)
    do {
        let result = try body()
        setLastStatus(0)
        return result
    } catch {
        let failure = error as? ServiceError ?? ServiceError(.software, "\(error)")
        errorOut?.pointee = cString(failure.message)
        setLastStatus(failure.status.rawValue)
        return fallback(failure.status.rawValue)
    }
}

/// Runs `body` for a call that returns a status (0 or a sysexits code).
func status(_ error: ErrorOut, _ body: () throws -> Void) -> Int32 {
    reporting(error, fallback: { $0 }) {
        try body()
        return 0
    }
}

/// Lines (warnings) as one malloc'd text, a line each, into `*out`; NULL when there are none.
func store(_ lines: [String], into out: ErrorOut) {
    out?.pointee = lines.isEmpty ? nil : cString(lines.joined(separator: "\n") + "\n")
}

/// A retained Swift object as an opaque handle, and back.
func handle<T: AnyObject>(_ object: T) -> OpaquePointer { OpaquePointer(Unmanaged.passRetained(object).toOpaque()) }
func object<T: AnyObject>(_ handle: OpaquePointer, as: T.Type = T.self) -> T {
    Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}
func release<T: AnyObject>(_ handle: OpaquePointer?, as: T.Type) {
    if let handle { Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).release() }
}

/// A handle that was NULL where one is needed.
func nullHandle(_ what: String) -> ServiceError {
    .usage("\(what) is NULL")
}

@_cdecl("thrum_free")
public func thrum_free(_ memory: UnsafeMutableRawPointer?) { free(memory) }

/// Thrum's version, in static memory.
nonisolated(unsafe) private let version = strdup(ThrumVersion.string)!

@_cdecl("thrum_version")
public func thrum_version() -> UnsafePointer<CChar> { UnsafePointer(version) }
