// swift-tools-version: 6.2
// Thrum's benchmark harness, `thrum-bench`: a separate package (as Tools/dev/fuzz is) so the product's
// Package.swift builds only what ships. Run it with `Tools/benchmark.sh`; Tools/test.sh builds it in release
// for RenderThreadAllocationTests. The malloc-counting shim interposes on malloc/free, so only thrum-bench
// links it, never a test binary.
import Foundation
import PackageDescription

// A path dependency's identity is the name of its folder (`thrum`, `main`, `wt-tests`…), so find it.
let thrumIdentity = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

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
    name: "ThrumBench",
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "CMallocCounter", path: "CMallocCounter"),
        .executableTarget(
            name: "thrum-bench",
            dependencies: ["CMallocCounter", .product(name: "Thrum", package: thrumIdentity)],
            path: "Sources", packageAccess: false, swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
