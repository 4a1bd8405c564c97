import Foundation
import Testing

@testable import ALSAOutput

/// Which sound server a PCM plays to, read from the ALSA configuration (no server needs to run).
@Suite struct SoundServerTests {
    @Test(arguments: [
        ("jack", ALSASoundServer?.some(.jack)), ("pipewire", .pipeWire), ("pulse", .pulseAudio), ("null", nil),
        ("file", nil),
    ])
    func typeInConfigurationTextNamesTheServer(type: String, server: ALSASoundServer?) {
        let text = "pcm.out { type \(type) }"
        #expect(ALSASoundServer.behind(.configuration(text: text, pcmName: "out")) == server)
    }

    @Test func undefinedOrUnparsableNamesHaveNoServer() {
        #expect(ALSASoundServer.behind(.configuration(text: "pcm.out { type jack }", pcmName: "other")) == nil)
        #expect(ALSASoundServer.behind(.configuration(text: "pcm.out { type ", pcmName: "out")) == nil)
        #expect(ALSASoundServer.behind(.named("thrum-no-such-pcm")) == nil)
        #expect(ALSASoundServer.behind(.named("null")) == nil)
    }

    /// libasound2-plugins defines `pcm.jack` (type jack) in the system configuration.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf.d/50-jack.conf"),
        "needs libasound2-plugins' /usr/share/alsa/alsa.conf.d/50-jack.conf"))
    func systemJackPCMIsJACK() {
        #expect(ALSASoundServer.behind(.named("jack")) == .jack)
    }
}
