// swift-tools-version: 6.2
// Thrum: Apple's Core Haptics rebuilt in Swift for Linux.
// Dependencies point one way, from the pattern model up to the command line:
//   FoundationStandIns (with Locked, the one lock) ← ThrumModel and every module that would otherwise need full
//   Foundation (none links it: Tools/ci/check-foundation-free.sh); ThrumModel ← AHAPCodec; ThrumModel, AudioAnalysis ← RenderCore; ThrumModel, AHAPCodec ← HapticFormats;
//   AudioResources (libsndfile, libsamplerate, CConfinedOpen) and ALSAOutput (ALSA) stand on FoundationStandIns alone, AudioAnalysis on nothing; Thrum (the
//   engine and public API) ← ThrumModel, AHAPCodec, HapticFormats, RenderCore, AudioAnalysis, AudioResources,
//   ALSAOutput; ThrumServices (the application layer) ← Thrum and the modules below it; the front doors stand on it:
//   ThrumStudio (civetweb), ThrumC (libthrum; its header as the module CThrumABI) and ThrumCommandLine (← ThrumStudio,
//   to launch it) ← ThrumServices; ThrumCLI ← ThrumCommandLine. Each target declares exactly the targets it imports
//   (Tools/ci/check-imports.py, run by Tools/test.sh).
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "Thrum",
    products: [
        .library(name: "Thrum", targets: ["Thrum"]),
        .executable(name: "thrum", targets: ["ThrumCLI"]),
        // libthrum, the C ABI (include/thrum.h): SwiftPM names it libThrumC.so; Tools/install.sh installs it as
        // libthrum.so.0 (its soname) with the link libthrum.so.
        .library(name: "ThrumC", type: .dynamic, targets: ["ThrumC"]),
    ],
    targets: [
        // System libraries (C shims).
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // libsndfile, libsamplerate and civetweb (Thrum Studio's HTTP + WebSocket server): their headers
        // (Debian's libsndfile1-dev, libsamplerate0-dev, libcivetweb-dev) and the functions Thrum calls, which
        // load each library at the first call (CDeferredLibrary), so that start-up does not pay for them.
        .target(name: "CDeferredLibrary"),
        .target(name: "CSndFile", dependencies: ["CDeferredLibrary"]),
        .target(name: "CSampleRate", dependencies: ["CDeferredLibrary"]),
        .target(name: "CCivetWeb", dependencies: ["CDeferredLibrary"]),
        // include/thrum.h, libthrum's header, as a module: ThrumC reads the option structs C programs pass.
        .systemLibrary(name: "CThrumABI"),
        // openat2(2) with RESOLVE_BENEATH (a system call glibc does not wrap), for confined resource paths.
        .target(name: "CConfinedOpen"),

        // printf-style number formatting, path-name splitting and trimming: what the modules below would otherwise
        // take from full Foundation (CoreFoundation and ICU, which the command line must not load at start).
        .target(name: "FoundationStandIns", swiftSettings: strict),

        // Core Haptics pattern model: CH* classes, IDs, errors, parameter attribute table, value data.
        .target(name: "ThrumModel", dependencies: ["FoundationStandIns"], swiftSettings: strict),
        // AHAP (JSON) reader with source locations, decoder with diagnostics, encoder.
        .target(name: "AHAPCodec", dependencies: ["ThrumModel", "FoundationStandIns"], swiftSettings: strict),
        // Sample-accurate renderer: schedule, voices, mixer. No I/O, no Foundation, real-time safe.
        .target(name: "RenderCore", dependencies: ["ThrumModel", "AudioAnalysis"], swiftSettings: strict),
        // `.haptic` (Meta Haptics Studio / Lofelt v1): reader with diagnostics, validator, writer; conversions
        // to and from AHAP (whose control changes it reads as the model defines them for the render core) and to
        // Android's vibration APIs; the native playback form.
        .target(name: "HapticFormats", dependencies: ["ThrumModel", "AHAPCodec", "FoundationStandIns"], swiftSettings: strict),
        // Audio → haptics: the streaming detector (level, onsets, spectrum) and the offline analysis. No dependencies.
        .target(name: "AudioAnalysis", swiftSettings: strict),
        // Audio files: libsndfile decoding/writing, libsamplerate conversion, limits, path confinement.
        .target(name: "AudioResources", dependencies: ["CSndFile", "CSampleRate", "CConfinedOpen", "FoundationStandIns"], swiftSettings: strict),
        // ALSA PCM output and the real-time render thread; capture with the stream's own clock.
        .target(name: "ALSAOutput", dependencies: ["CALSA", "FoundationStandIns"], swiftSettings: strict),
        // `thrum measure`: an actuator's response and latency through an ALSA loop (output → actuator → sensor →
        // input), and the equalised profile it makes.
        .target(name: "ActuatorMeasurement", dependencies: ["ALSAOutput", "RenderCore"], swiftSettings: strict),
        // The public Core Haptics API: re-exports Foundation, the model and the engine's option types
        // (ChannelMap, ActuatorProfile, AudioResourceLimits), adds the engine and players.
        .target(
            name: "Thrum",
            dependencies: [
                "ThrumModel", "AHAPCodec", "HapticFormats", "RenderCore", "AudioAnalysis", "AudioResources", "ALSAOutput",
                "FoundationStandIns",
            ],
            swiftSettings: strict),
        // The application layer under every front door (the command line, the studio, libthrum, Python): typed
        // requests and results for loading, checking, rendering, converting, analysing, importing and playing
        // patterns, with typed errors that carry the exit status and the one-line message.
        .target(
            name: "ThrumServices",
            dependencies: [
                "Thrum", "ThrumModel", "AHAPCodec", "HapticFormats", "RenderCore", "AudioAnalysis", "AudioResources",
                "ALSAOutput", "ActuatorMeasurement", "FoundationStandIns",
            ],
            swiftSettings: strict),
        // Command-line commands and the in-house argument parser (a library so tests can drive it).
        .target(
            name: "ThrumCommandLine",
            dependencies: [
                "Thrum", "ThrumModel", "AHAPCodec", "RenderCore", "AudioAnalysis", "AudioResources", "ALSAOutput",
                "HapticFormats", "ThrumStudio", "ThrumServices", "FoundationStandIns", "ActuatorMeasurement",
            ],
            swiftSettings: strict),
        // Thrum Studio: the local web server (civetweb), its API, the edited document and its transport on the
        // engine; checks, renders and analyses are the services'.
        .target(
            name: "ThrumStudio",
            dependencies: [
                "CCivetWeb", "Thrum", "ThrumServices", "ThrumModel", "AHAPCodec", "HapticFormats", "AudioResources",
                "FoundationStandIns", "ActuatorMeasurement",
            ],
            swiftSettings: strict),
        .executableTarget(name: "ThrumCLI", dependencies: ["ThrumCommandLine"], swiftSettings: strict),
        // The C ABI over the services (ThrumServices): marshalling only.
        .target(
            name: "ThrumC", dependencies: ["CThrumABI", "ThrumServices", "Thrum", "AudioResources", "AHAPCodec", "ActuatorMeasurement"], swiftSettings: strict,
            // Tools/release/libthrum.map: libthrum exports thrum_* only (Tools/ci/libthrum-symbols.txt lists them).
            linkerSettings: [.unsafeFlags([
                "-Xlinker", "-soname=libthrum.so.0",
                "-Xlinker", "--version-script=\(Context.packageDirectory)/Tools/release/libthrum.map",
            ])]),

        // Helpers shared by the test targets (corpus and oracle locations, temporary folders, signal measurements,
        // snapshots, a seeded generator); never linked into a product.
        .target(name: "ThrumTestSupport", path: "Tests/ThrumTestSupport", swiftSettings: strict),
        .testTarget(name: "FoundationStandInsTests", dependencies: ["FoundationStandIns"], swiftSettings: strict),
        .testTarget(name: "ThrumModelTests", dependencies: ["ThrumModel"], swiftSettings: strict),
        .testTarget(
            name: "AHAPCodecTests", dependencies: ["AHAPCodec", "ThrumModel", "ThrumTestSupport"], exclude: ["Fixtures", "Snapshots"],
            swiftSettings: strict),
        .testTarget(
            name: "HapticFormatsTests", dependencies: ["HapticFormats", "AHAPCodec", "ThrumModel", "ThrumTestSupport"],
            exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "RenderCoreTests", dependencies: ["RenderCore", "ThrumModel", "AudioAnalysis", "ThrumTestSupport"],
            exclude: ["Golden"], swiftSettings: strict),
        .testTarget(
            name: "AudioResourcesTests", dependencies: ["AudioResources", "ThrumTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "AudioAnalysisTests", dependencies: ["AudioAnalysis", "ThrumTestSupport"], swiftSettings: strict),
        .testTarget(name: "ALSAOutputTests", dependencies: ["ALSAOutput", "FoundationStandIns", "ThrumTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ActuatorMeasurementTests",
            dependencies: ["ActuatorMeasurement", "ALSAOutput", "RenderCore", "Thrum", "ThrumTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ThrumTests", dependencies: ["Thrum", "AHAPCodec", "AudioResources", "HapticFormats", "FoundationStandIns", "ThrumTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ThrumCommandLineTests",
            dependencies: [
                "ThrumCommandLine", "ThrumServices", "Thrum", "ThrumModel", "RenderCore", "AudioResources", "AHAPCodec",
                "HapticFormats", "FoundationStandIns", "ThrumTestSupport",
            ],
            exclude: ["Snapshots"],
            swiftSettings: strict),
        .testTarget(
            name: "CoreHapticsExamplesTests", dependencies: ["Thrum", "FoundationStandIns", "ThrumTestSupport"], swiftSettings: strict),
        // Core Haptics game-controller code (engines per locality of a controller), ported with its import and the
        // line that obtains the controller's haptics changed.
        .testTarget(
            name: "CoreHapticsGameControllerTests", dependencies: ["Thrum", "ThrumTestSupport"], swiftSettings: strict),
        // Reference code written for app targets, compiled as Xcode 26 compiles them: main-actor by default.
        .testTarget(
            name: "CoreHapticsAppExamplesTests", dependencies: ["Thrum"],
            swiftSettings: strict + [.defaultIsolation(MainActor.self)]),

        // The benchmark harness, thrum-bench, is its own package: Tools/bench (run by Tools/benchmark.sh).
    ],
    swiftLanguageModes: [.v6]
)
