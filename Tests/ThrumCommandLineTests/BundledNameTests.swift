import Foundation
import HapticFormats
import Testing
import ThrumTestSupport

/// Every command that reads a pattern takes a bundled pattern's name, as `play` and `render` do (issue 36
/// item 4): `info`, `check` and `convert` read the same file `thrum list` names.
@Suite struct BundledNameTests {
    /// The bundled heartbeat, as a path: what each command must give for the name too.
    static let heartbeat = packageRoot.appendingPathComponent("Resources/Patterns/heartbeat.ahap").path

    @Test func infoCheckAndConvertTakeABundledName() throws {
        let info = runThrum(["info", "--json", "heartbeat"])
        #expect(info.status == 0, "\(info.err)")
        let byPath = runThrum(["info", "--json", Self.heartbeat])
        let named = try #require(try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any])
        let pathed = try #require(try JSONSerialization.jsonObject(with: Data(byPath.out.utf8)) as? [String: Any])
        #expect(named["eventCount"] as? Int == pathed["eventCount"] as? Int && (named["eventCount"] as? Int ?? 0) > 0)
        #expect((named["file"] as? String)?.hasSuffix("/Patterns/heartbeat.ahap") == true, "named by its file")

        let check = runThrum(["check", "Heartbeat"])
        #expect(check.status == 0 && check.out.hasSuffix("checked 1 file: 0 errors, 0 warnings\n"), "\(check.out)\(check.err)")

        let temporary = TemporaryDirectory("bundled")
        let fromName = runThrum(["convert", "heartbeat", "-o", temporary.path + "/named.haptic"])
        let fromPath = runThrum(["convert", Self.heartbeat, "-o", temporary.path + "/path.haptic"])
        #expect(fromName.status == 0 && fromPath.status == 0, "\(fromName.err)\(fromPath.err)")
        let named2 = try Data(contentsOf: URL(fileURLWithPath: temporary.path + "/named.haptic"))
        #expect(named2 == (try Data(contentsOf: URL(fileURLWithPath: temporary.path + "/path.haptic"))))
        #expect(HapticFileDecoder.decode(data: named2, file: "named.haptic").file != nil)
    }

    @Test func aNameThatIsNeitherAFileNorBundledIsMissing() {
        let result = runThrum(["info", "no-such-bundled-pattern"])
        #expect(result.status == 66)
        #expect(result.err == "thrum info: cannot open 'no-such-bundled-pattern': no such file (check the path)\n")
    }
}
