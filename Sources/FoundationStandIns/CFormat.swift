#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// Formats numbers the way C's printf(3) does: `String(cFormat: "%.3g", 0.1234)` is `"0.123"`.
    ///
    /// It stands in for Foundation's `String(format:)`, which would link full Foundation (CoreFoundation, ICU)
    /// into the command line for nothing but number formatting. The arguments are C scalars (`Int`, `Int32`,
    /// `UInt32`, `Double`…) matching the conversions as C requires (`%ld` for `Int`, `%d` for `Int32`); there is no
    /// `%@`: interpolate strings instead. The process never calls setlocale(3), so the decimal point is `.`.
    /// Thread-safe; allocates (not for the render thread).
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        var capacity = 64
        while true {
            var bytes = [CChar](repeating: 0, count: capacity)
            let needed = withVaList(arguments) { list in
                bytes.withUnsafeMutableBufferPointer { Int(vsnprintf($0.baseAddress, capacity, format, list)) }
            }
            if needed < 0 {
                self = ""
                return
            }
            if needed < capacity {
                self = String(decoding: bytes[0..<needed].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return
            }
            capacity = needed + 1
        }
    }
}
