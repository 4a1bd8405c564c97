import Foundation
import Glibc
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
    func systemJackPCMIsFound() {
        #expect(ALSASoundServer.behind(.named("jack")) == .jack)
    }

    @Test func errorsOfAServerNameItAndItsRemedies() {
        let notRunning = ALSAError(code: -ENOENT, operation: .open, device: "jack", server: .jack)
        #expect(notRunning.description.contains("the JACK server is not running or cannot be reached"))
        #expect(notRunning.description.contains("JACK_DEFAULT_SERVER"))
        let ports = ALSAError(code: -EIO, operation: .configureHardware, device: "jack", server: .jack)
        #expect(ports.description.contains("could not connect the ports"))
        let gone = ALSAError(code: -EPIPE, operation: .write, device: "pipewire", server: .pipeWire)
        #expect(gone.description.contains("the PipeWire server stopped or went away"))
        #expect(!gone.description.contains("larger period"))
        let hung = ALSAError(code: -ETIMEDOUT, operation: .poll, device: "pulse", server: .pulseAudio)
        #expect(hung.description.contains("the PulseAudio server stopped taking samples for over 2 s"))
        #expect(hung.description.contains("'pulse'"))
        // Without a server: a card's messages.
        #expect(ALSAError(code: -EPIPE, operation: .write, device: "hw:0").description.contains("larger period"))
    }
}
