import Testing
import Thrum

@Suite struct ProbeTests {
    @Test func probe() throws {
        let e = try makeOfflineEngine()
        try playTap(on: e)
        let r = try renderOutput(e, seconds: 0.1)
        print("tap onset", onset(r.haptic) as Any, "last", lastSound(r.haptic) as Any)
    }
}
