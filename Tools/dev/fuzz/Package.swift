// swift-tools-version: 6.2
// Thrum's libFuzzer harnesses: a separate package so the fuzzers (which need `--sanitize=fuzzer` to
// link libFuzzer) never take part in the main package's normal build. Run them with `Tools/dev/fuzz.sh`.
import Foundation
import PackageDescription

// A path dependency's identity is the name of its folder (`thrum`, `main`, `wt-fuzz`…), so find it.
// This package is Tools/dev/fuzz, three folders below it.
let thrumIdentity = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// Thrum's modules share their `package` declarations under the package name SwiftPM gives them: that identity
// as a C99 identifier (`wt-surface` → `wt_surface`, a clone in /tmp/ci → `ci`). The targets here compile under
// that name to see them (`packageAccess: false` stops SwiftPM passing this package's own name after it).
let thrumPackageName: String = {
    let name = String(thrumIdentity.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    return name.first?.isNumber == true ? "_" + name : name
}()

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"), .unsafeFlags(["-package-name", thrumPackageName]),
]

let package = Package(
    name: "ThrumFuzz",
    dependencies: [.package(path: "../../..")],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver` weak, so the harnesses link (and say so) without libFuzzer.
        .target(name: "CFuzzerDriver"),
        // The shared `main` logic: hands the command line to libFuzzer.
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], packageAccess: false, swiftSettings: strict),
        // An accepted pattern → CompiledPattern → Renderer, checking every sample (shared by the harnesses).
        .target(
            name: "FuzzRender", dependencies: ["FuzzSupport", .product(name: "Thrum", package: thrumIdentity)],
            packageAccess: false, swiftSettings: strict),
        // AHAP text → JSONReader → AHAPDecoder (+ PatternValidator) → CompiledPattern → Renderer, checking the
        // result's invariants.
        .executableTarget(
            name: "thrum-fuzz-ahap",
            dependencies: ["FuzzSupport", "FuzzRender", .product(name: "Thrum", package: thrumIdentity)],
            packageAccess: false, swiftSettings: strict),
        // .haptic text → HapticFileDecoder (both modes) → playback form rendered, AHAP and Android exports and
        // the way back, checking their invariants.
        .executableTarget(
            name: "thrum-fuzz-haptic",
            dependencies: ["FuzzSupport", "FuzzRender", .product(name: "Thrum", package: thrumIdentity)],
            packageAccess: false, swiftSettings: strict),
        // .hjif and .hmpg bytes → HJIFDecoder and HMPGDecoder → checks, playback form rendered, the writers
        // and the way back, checking their invariants.
        .executableTarget(
            name: "thrum-fuzz-hjif",
            dependencies: ["FuzzSupport", "FuzzRender", .product(name: "Thrum", package: thrumIdentity)],
            packageAccess: false, swiftSettings: strict),
        // Audio bytes → temporary file → AudioFileInfo.probe and AudioFileLoader.load with small limits.
        .executableTarget(
            name: "thrum-fuzz-audio",
            dependencies: ["FuzzSupport", .product(name: "Thrum", package: thrumIdentity)],
            packageAccess: false, swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
