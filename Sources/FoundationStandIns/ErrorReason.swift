import FoundationEssentials
import Glibc

/// One line saying why a file operation failed, in place of Foundation's `localizedDescription`: the system's
/// text for the POSIX error under it (`"No such file or directory"`), or else the error's own description.
/// FoundationEssentials' file errors (`CocoaError`) carry the POSIX error as their underlying error.
package func systemReason(of error: any Error) -> String {
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
    }
    return "\(error)"
}
