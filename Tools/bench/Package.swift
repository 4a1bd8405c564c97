// swift-tools-version: 6.2
// Thrum's benchmark harness, `thrum-bench`: a separate package (as Tools/fuzz is) so the product's
// Package.swift builds only what ships. Run it with `Tools/benchmark.sh`; Tools/test.sh builds it in release
// for RenderThreadAllocationTests. The malloc-counting shim interposes on malloc/free, so only thrum-bench
// links it, never a test binary.
import Foundation
import PackageDescription

// A path dependency's identity is the name of its folder (`thrum`, `main`, `wt-tests`…), so find it.
let thrumIdentity = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let strict: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "ThrumBench",
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "CMallocCounter", path: "CMallocCounter"),
        .executableTarget(
            name: "thrum-bench",
            dependencies: ["CMallocCounter", .product(name: "Thrum", package: thrumIdentity)],
            path: "Sources", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
