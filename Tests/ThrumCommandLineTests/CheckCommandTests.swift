import Foundation
import Testing
import ThrumTestSupport

@Suite struct CheckCommandTests {
    let malformed = packageRoot.path + "/Tests/AHAPCodecTests/Fixtures/malformed"

    @Test func malformedFilesSnapshot() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: malformed).sorted().map { malformed + "/" + $0 }
        #expect(files.count >= 20)
        let result = runThrum(["check"] + files)
        #expect(result.status == 65)
        #expect(result.err.isEmpty)
        let output = result.out.replacingOccurrences(of: malformed + "/", with: "malformed/")
        assertSnapshot(output, named: "check-malformed.txt")
    }

    @Test func everyFindingIsOneCompilerStyleLine() throws {
        let result = runThrum(["check", malformed + "/lowercase-event-type.ahap"])
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(result.status == 65)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(malformed + "/lowercase-event-type.ahap:"))
        #expect(lines[0].contains(": error: Pattern[0].Event.EventType: unknown EventType \"hapticTransient\"; did you mean \"HapticTransient\"? [CHHapticError.invalidEventType]"))
        #expect(lines[1] == "checked 1 file: 1 error, 0 warnings, 1 rejected")
    }

    @Test func cleanAndWarningOnlyFilesExitZero() throws {
        let folder = TemporaryDirectory("cli")
        let clean = try folder.write(
            "clean.ahap", #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#)
        #expect(runThrum(["check", clean]) == (0, "checked 1 file: 0 errors, 0 warnings\n", ""))
        let warned = try folder.write(
            "warned.ahap", #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#)
        let result = runThrum(["check", warned])
        #expect(result.status == 0)
        // The one finding, compiler style (FILE:LINE:COLUMN: warning: MESSAGE; a top-level finding has no path).
        #expect(
            result.out == "\(warned):1:1: warning: Version missing; 1.0 assumed; add \"Version\": 1.0\n"
                + "checked 1 file: 0 errors, 1 warning\n")
        let strict = runThrum(["check", "--strict", warned])
        #expect(strict.status == 65)
        #expect(strict.out.contains(": error: "))
        #expect(strict.out.hasSuffix("checked 1 file: 1 error, 0 warnings, 1 rejected\n"))
    }

    @Test func missingFileExits66() {
        let result = runThrum(["check", "/nonexistent/nothing.ahap"])
        #expect(result.status == 66)
        #expect(result.out == "/nonexistent/nothing.ahap: error: no such file\nchecked 1 file: 0 errors, 0 warnings, 1 missing\n")
    }

    @Test func jsonOutputCarriesTheSameFindings() throws {
        let result = runThrum(["check", "--json", malformed + "/lowercase-event-type.ahap"])
        #expect(result.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 1)
        let files = try #require(object["files"] as? [[String: Any]])
        let diagnostics = try #require(files.first?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["code"] as? String == "invalidEventType")
        #expect(diagnostics.first?["codeValue"] as? Int == -4821)
        #expect(diagnostics.first?["path"] as? String == "Pattern[0].Event.EventType")
        #expect(diagnostics.first?["line"] as? Int != nil)
    }

    @Test func bundledPatternsAreClean() throws {
        let folder = packageRoot.path + "/Resources/Patterns"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ahap") }
        #expect(files.count >= 25)
        let result = runThrum(["check", "--strict"] + files.map { folder + "/" + $0 })
        #expect(result.status == 0)
        #expect(result.out == "checked \(files.count) files: 0 errors, 0 warnings\n")
    }
}

@Suite struct InfoAndHelpTests {
    @Test func infoSummarisesAPattern() throws {
        let result = runThrum(["info", packageRoot.path + "/Resources/Patterns/checkout.ahap"])
        #expect(result.status == 0)
        let text = result.out.replacingOccurrences(of: packageRoot.path + "/", with: "")
        assertSnapshot(text, named: "info-checkout.txt")
    }

    @Test func infoJSON() throws {
        let result = runThrum(["info", "--json", packageRoot.path + "/Resources/Patterns/heartbeat.ahap"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["duration"] as? Double == 1.0)
        #expect((object["events"] as? [String: Int])?["HapticTransient"] ?? 0 > 0)
    }

    @Test func infoOnABrokenFileExits65WithTheFirstError() throws {
        let folder = TemporaryDirectory("cli")
        let broken = try folder.write("broken.ahap", #"{"Pattern": [{"Event": {"EventType": "HapticTransient"}}]}"#)
        let result = runThrum(["info", broken])
        #expect(result.status == 65)
        #expect(result.err.contains("invalidEventTime"))
        #expect(result.err.contains("run 'thrum check"))
    }

    @Test func helpTexts() throws {
        assertSnapshot(runThrum(["--help"]).out, named: "help.txt")
        assertSnapshot(runThrum(["check", "--help"]).out, named: "help-check.txt")
        assertSnapshot(runThrum(["info", "--help"]).out, named: "help-info.txt")
        assertSnapshot(runThrum(["convert", "--help"]).out, named: "help-convert.txt")
        #expect(runThrum(["help", "check"]).out == runThrum(["check", "--help"]).out)
    }

    @Test func usageErrorsExit64() {
        #expect(runThrum([]).status == 64)
        let unknown = runThrum(["chek", "x"])
        #expect(unknown == (64, "", "thrum: unknown command 'chek'; did you mean 'check'? (see 'thrum --help')\n"))
        let option = runThrum(["check", "--strikt", "x"])
        #expect(option == (64, "", "thrum check: unknown option '--strikt' for 'thrum check'; did you mean '--strict'?\n"))
    }
}
