import AHAPCodec
import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// Finds the files Thrum ships (`Patterns`, `Actuators`, `Audio`, `Studio`): `$THRUM_RESOURCES`; else, from
/// the folder of the file holding this code (`thrum`, or `libthrum.so` loaded by another program) and then
/// from the executable's, `../share/thrum` (an installed prefix) or the nearest `Resources` folder above (a
/// SwiftPM build tree).
package enum BundledResources {
    /// The folder, or nil when none is found.
    package static let folder: String? = {
        if let override = FileSystem.environment("THRUM_RESOURCES") { return override }
        for start in [imagePath(), "/proc/self/exe"].compactMap({ $0 }) {
            var folder = PathName.parent(FileSystem.resolvingSymlinks(start))
            let installed = PathName.appending(PathName.parent(folder), "share/thrum")
            if FileSystem.exists(PathName.appending(installed, "Patterns")) { return installed }
            for _ in 0..<6 {
                if FileSystem.exists(PathName.appending(folder, "Resources/Patterns")) {
                    return PathName.appending(folder, "Resources")
                }
                folder = PathName.parent(folder)
            }
        }
        return nil
    }()

    /// The file mapped at this module's code (glibc's dladdr is not visible to Swift): from /proc/self/maps.
    private static func imagePath() -> String? {
        let address = UInt(bitPattern: #dsohandle)
        // Read to the end: /proc files say they are empty.
        guard let data = FileBytes.read(path: "/proc/self/maps", limit: 64 << 20) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            guard fields.count == 6, range.count == 2, range[0] <= address, address < range[1] else { continue }
            return fields[5].trimmingSpaces
        }
        return nil
    }

    package static var patterns: String? { folder.map { $0 + "/Patterns" } }
    package static var audio: String? { folder.map { $0 + "/Audio" } }

    /// `Resources/Audio` for a bundled pattern (its audio lives there), else nothing.
    package static func audioRoots(for patternPath: String) -> [String] {
        guard let audio, let patterns,
            PathName.parent(FileSystem.resolvingSymlinks(patternPath)) == FileSystem.resolvingSymlinks(patterns)
        else { return [] }
        return [audio]
    }

    /// `Resources/Audio` when `folder` is the bundled patterns' folder, else nothing.
    package static func audioRoots(forFolder folder: String) -> [String] {
        guard let audio, let patterns, FileSystem.resolvingSymlinks(folder) == FileSystem.resolvingSymlinks(patterns) else {
            return []
        }
        return [audio]
    }

    /// The path of a pattern argument: an existing file as given, else a bundled pattern by name
    /// (case-insensitive, with or without `.ahap`).
    package static func patternPath(_ argument: String) -> String {
        if FileSystem.exists(argument) || argument.contains("/" as Character) { return argument }
        guard let folder = patterns, let names = FileSystem.directoryEntries(folder) else { return argument }
        let wanted = argument.lowercased().hasSuffix(".ahap") ? argument.lowercased() : argument.lowercased() + ".ahap"
        guard let match = names.first(where: { $0.lowercased() == wanted }) else { return argument }
        return folder + "/" + match
    }
}

/// One pattern of the bundled catalogue (`thrum list`): played, rendered and read by its name.
package struct BundledPattern: Sendable, Equatable {
    /// The name, the file's without `.ahap` (`heartbeat`).
    package let name: String
    /// Seconds (release tails excluded).
    package let duration: Double
    /// The file's `Description` metadata, or "".
    package let description: String
}

extension BundledResources {
    /// The bundled patterns, by name.
    /// - Throws: ``ServiceError`` 66 when the bundled files are not found.
    package static func catalogue() throws(ServiceError) -> [BundledPattern] {
        guard let folder = patterns, let names = FileSystem.directoryEntries(folder) else {
            throw ServiceError(.noInput, "the bundled patterns were not found (set THRUM_RESOURCES to Thrum's Resources folder)")
        }
        return names.sorted().filter { $0.hasSuffix(".ahap") }.compactMap { file in
            guard let pattern = AHAPDecoder.decode(contentsOfFile: folder + "/" + file).pattern else { return nil }
            let description = pattern.metadata.first { $0.key == "Description" }?.value ?? ""
            return BundledPattern(name: String(file.dropLast(5)), duration: pattern.duration, description: description)
        }
    }
}
