import Foundation
import Testing
import ThrumTestSupport

@testable import ThrumCommandLine

@Suite struct TerminalControlTests {
    @Test func keysAndArrowSequences() {
        var bytes = Array(" +-lmq\u{1B}[C\u{1B}[Dx".utf8)
        #expect(
            TerminalKeys.parse(&bytes) == [
                .pauseResume, .faster, .slower, .toggleLoop, .toggleHapticMute, .quit, .seekForward, .seekBack,
            ])
        #expect(bytes.isEmpty)
        var partial: [UInt8] = [0x1B, UInt8(ascii: "[")]
        #expect(TerminalKeys.parse(&partial).isEmpty)
        #expect(partial.count == 2, "an incomplete escape sequence waits for its last byte")
    }

    @Test func statusLineText() {
        let line = StatusLine(
            position: 61.5, duration: 120, loopCount: 2, looping: true, rate: 1.25, xruns: 0, paused: false,
            hapticsMuted: true)
        #expect(line.text == "▶ 1:01.50 / 2:00.00  loop 3  rate ×1.25  xruns 0  haptics muted  [space ←/→ +/- l m q]")
        let paused = StatusLine(
            position: 0.25, duration: 1, loopCount: 0, looping: false, rate: 1, xruns: 3, paused: true,
            hapticsMuted: false)
        #expect(paused.text == "❚❚ 0:00.25 / 0:01.00  once  rate ×1.00  xruns 3  [space ←/→ +/- l m q]")
    }
}

@Suite struct ProgressBarTests {
    @Test func barText() {
        #expect(
            ProgressBar.text(frames: 576_000, totalFrames: 1_440_000, sampleRate: 48000)
                == "rendering [########------------]  40%  12.0 / 30.0 s")
        #expect(
            ProgressBar.text(frames: 2_000_000, totalFrames: 1_440_000, sampleRate: 48000)
                == "rendering [####################] 100%  41.7 / 30.0 s")
    }

    @Test func nothingWhenNotATerminal() {
        let folder = TemporaryDirectory("progress")
        let result = runThrum(["render", "textured-drag", "-o", folder.file("progress.wav"), "--sample-rate", "8000"])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
    }
}
