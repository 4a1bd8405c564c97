import FoundationEssentials
import FoundationStandIns
import ThrumModel

/// Typed member values and the Pattern entries (events, parameters, curves, control points).
extension DecodeContext {
    // MARK: Typed values

    /// A number, or a numeric string (with a warning). Reports an error and returns nil otherwise.
    mutating func number(_ member: JSONMember, path: String) -> (value: Double, literal: String)? {
        let node = member.value
        switch node.value {
        case .number(let value, let literal):
            return (value, literal)
        case .string(let text):
            let trimmed = text.trimmingSpaces
            if let value = Double(trimmed), value.isFinite {
                report(
                    .warning, nil, "\(member.key) is the string \"\(text)\"; read as the number \(trimmed)",
                    suggestion: "write the number without quotes", path: path, at: node.position)
                return (value, trimmed)
            }
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be a number, found the string \"\(text)\"",
                path: path, at: node.position)
            return nil
        default:
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be a number, found \(node.typeDescription)",
                path: path, at: node.position)
            return nil
        }
    }

    /// A `Float` value read from its literal text (so a shortest-form `Float` reads back exactly).
    mutating func float(_ member: JSONMember, path: String) -> Float? {
        guard let (value, literal) = number(member, path: path) else { return nil }
        return Float(literal) ?? Float(value)
    }

    /// A boolean; the numbers 0 and 1 are accepted with a warning.
    mutating func bool(_ member: JSONMember, path: String) -> Bool? {
        switch member.value.value {
        case .bool(let flag):
            return flag
        case .number(let value, let literal) where value == 0 || value == 1:
            report(
                .warning, nil, "\(member.key) is the number \(literal); read as \(value == 1)",
                suggestion: "write \(value == 1) instead", path: path, at: member.value.position)
            return value == 1
        case .number(_, let literal):
            report(
                .error, .invalidPatternDictionary, "\(member.key) must be true or false, found the number \(literal)",
                path: path, at: member.value.position)
            return nil
        default:
            report(
                .error, .invalidPatternDictionary,
                "\(member.key) must be true or false, found \(member.value.typeDescription)", path: path,
                at: member.value.position)
            return nil
        }
    }

    /// The `Time` member, or its alias; warns when both are present.
    mutating func timeMember(_ members: [String: JSONMember], alias: String, path: String) -> JSONMember? {
        if let time = members["Time"] {
            if let other = members[alias] {
                report(
                    .warning, nil, "\(alias) is ignored because Time is also given", path: Self.join(path, alias),
                    at: other.keyPosition ?? other.value.position)
            }
            return time
        }
        if let time = members[alias] {
            aliases[Self.join(path, "Time")] = Self.join(path, alias)
            return time
        }
        return nil
    }

    // MARK: Entries

    mutating func decodeEntry(_ entry: JSONNode, path: String, into pattern: inout PatternData) {
        guard case .object = entry.value else {
            report(
                .error, .invalidPatternDictionary, "a Pattern entry must be an object, found \(entry.typeDescription)",
                path: path, at: entry.position)
            droppedEntries = true
            return
        }
        _ = self.members(of: entry, path: path, known: Keys.entry)  // warns about unknown keys
        var found = false
        for member in orderedMembers(of: entry) {
            let memberPath = Self.join(path, member.key)
            switch member.key {
            case "Event":
                found = true
                if let event = decodeEvent(member, path: memberPath) {
                    pattern.events.append(event)
                    eventPaths.append(memberPath)
                } else {
                    droppedEntries = true
                }
            case "Parameter":
                found = true
                if let parameter = decodeParameter(member, path: memberPath) {
                    pattern.parameters.append(parameter)
                    parameterPaths.append(memberPath)
                } else {
                    droppedEntries = true
                }
            case "ParameterCurve":
                found = true
                if let curve = decodeCurve(member, path: memberPath) {
                    pattern.curves.append(curve)
                    curvePaths.append(memberPath)
                } else {
                    droppedEntries = true
                }
            default:
                break
            }
        }
        if !found {
            report(
                .warning, nil, "the entry has no Event, Parameter or ParameterCurve; it is ignored", path: path,
                at: entry.position)
        }
    }

    /// Checks that `member` holds an object; reports an error otherwise.
    mutating func requireObject(_ member: JSONMember, path: String) -> Bool {
        if case .object = member.value.value { return true }
        report(
            .error, .invalidPatternDictionary, "\(member.key) must be an object, found \(member.value.typeDescription)",
            path: path, at: member.value.position)
        return false
    }

    /// Reads an optional number member; nil when absent. A wrong type is reported and clears `ok`.
    mutating func readNumber(_ member: JSONMember?, in path: String, ok: inout Bool) -> Double? {
        guard let member else { return nil }
        let value = number(member, path: Self.join(path, member.key))?.value
        if value == nil { ok = false }
        return value
    }

    /// Reads an optional `Float` member from its literal (see `readNumber` and `float`).
    mutating func readFloat(_ member: JSONMember?, in path: String, ok: inout Bool) -> Float? {
        guard let member else { return nil }
        let value = float(member, path: Self.join(path, member.key))
        if value == nil { ok = false }
        return value
    }

    /// Reads an optional string member (see `readNumber`).
    mutating func readString(_ member: JSONMember?, in path: String, ok: inout Bool) -> String? {
        guard let member else { return nil }
        let value = string(member, path: Self.join(path, member.key))
        if value == nil { ok = false }
        return value
    }

    /// Reads an optional bool member (see `readNumber`).
    mutating func readBool(_ member: JSONMember?, in path: String, ok: inout Bool) -> Bool? {
        guard let member else { return nil }
        let value = bool(member, path: Self.join(path, member.key))
        if value == nil { ok = false }
        return value
    }

    /// Reports a required key that is absent (an error at the entry) and clears `ok`.
    mutating func requirePresent(
        _ member: JSONMember?, _ code: CHHapticError.Code, _ message: String, suggestion: String, node: JSONNode,
        path: String, ok: inout Bool
    ) {
        guard member == nil else { return }
        report(.error, code, message, suggestion: suggestion, path: path, at: node.position)
        ok = false
    }

    mutating func decodeEvent(_ member: JSONMember, path: String) -> EventData? {
        guard requireObject(member, path: path) else { return nil }
        let node = member.value
        let members = self.members(of: node, path: path, known: Keys.event)
        var ok = true

        let typeMember = members["EventType"]
        requirePresent(
            typeMember, .badEventEntry, "Missing event type: the event has no EventType",
            suggestion: "add \"EventType\": one of "
                + CHHapticEvent.EventType.allKnown.map(\.rawValue).joined(separator: ", "),
            node: node, path: path, ok: &ok)
        let type = readString(typeMember, in: path, ok: &ok).map { CHHapticEvent.EventType(rawValue: $0) }
        let time = timeMember(members, alias: "EventTime", path: path)
        requirePresent(
            time, .invalidEventTime, "Illegal or missing event time: the event has no Time",
            suggestion: "add \"Time\" (seconds from the pattern start)", node: node, path: path, ok: &ok)
        let seconds = readNumber(time, in: path, ok: &ok)
        let duration = readNumber(members["EventDuration"], in: path, ok: &ok)
        let waveformPath = readString(members["EventWaveformPath"], in: path, ok: &ok)
        let useVolumeEnvelope = readBool(members["EventWaveformUseVolumeEnvelope"], in: path, ok: &ok)
        let loopEnabled = readBool(members["EventWaveformLoopEnabled"], in: path, ok: &ok)

        var parameters: [EventParameterData] = []
        if let list = members["EventParameters"] {
            let listPath = Self.join(path, "EventParameters")
            if case .array(let entries) = list.value.value {
                for (index, entry) in entries.enumerated() {
                    if let parameter = decodeEventParameter(entry, path: "\(listPath)[\(index)]") {
                        parameters.append(parameter)
                    } else {
                        ok = false
                    }
                }
            } else {
                report(
                    .error, .invalidPatternDictionary,
                    "EventParameters must be an array, found \(list.value.typeDescription)", path: listPath,
                    at: list.value.position)
                ok = false
            }
        }

        guard ok, let type, let seconds else { return nil }
        return EventData(
            type: type, time: seconds, duration: duration, parameters: parameters, waveformPath: waveformPath,
            useVolumeEnvelope: useVolumeEnvelope, loopEnabled: loopEnabled)
    }

    mutating func decodeEventParameter(_ node: JSONNode, path: String) -> EventParameterData? {
        guard case .object = node.value else {
            report(
                .error, .badParameterEntry, "an EventParameters entry must be an object, found \(node.typeDescription)",
                path: path, at: node.position)
            return nil
        }
        let members = self.members(of: node, path: path, known: Keys.eventParameter)
        var ok = true
        requirePresent(
            members["ParameterID"], .badParameterEntry, "the event parameter has no ParameterID",
            suggestion: "add \"ParameterID\", e.g. \"HapticIntensity\"", node: node, path: path, ok: &ok)
        let id = readString(members["ParameterID"], in: path, ok: &ok)
        requirePresent(
            members["ParameterValue"], .badParameterEntry, "the event parameter has no ParameterValue",
            suggestion: "add \"ParameterValue\"", node: node, path: path, ok: &ok)
        let value = readFloat(members["ParameterValue"], in: path, ok: &ok)
        guard ok, let id, let value else { return nil }
        return EventParameterData(id: CHHapticEvent.ParameterID(rawValue: id), value: value)
    }

    /// The `ParameterID` of a `Parameter` or `ParameterCurve`; reports badParameterEntry when missing.
    mutating func dynamicID(_ members: [String: JSONMember], node: JSONNode, path: String, kind: String) -> String? {
        guard let idMember = members["ParameterID"] else {
            report(
                .error, .badParameterEntry, "the \(kind) has no ParameterID",
                suggestion: "add \"ParameterID\", e.g. \"HapticIntensityControl\"", path: path, at: node.position)
            return nil
        }
        return string(idMember, path: Self.join(path, "ParameterID"))
    }

    mutating func decodeParameter(_ member: JSONMember, path: String) -> DynamicParameterData? {
        guard requireObject(member, path: path) else { return nil }
        let node = member.value
        let members = self.members(of: node, path: path, known: Keys.parameter)
        let id = dynamicID(members, node: node, path: path, kind: "Parameter")
        var ok = id != nil
        let timeMember = timeMember(members, alias: "ParameterTime", path: path)
        requirePresent(
            timeMember, .badParameterEntry, "the Parameter has no Time",
            suggestion: "add \"Time\" (seconds from the pattern start)", node: node, path: path, ok: &ok)
        let time = readNumber(timeMember, in: path, ok: &ok)
        let value = readFloat(members["ParameterValue"], in: path, ok: &ok) ?? 0
        if members["ParameterValue"] == nil, let id {
            let silences = id == CHHapticDynamicParameter.ID.hapticIntensityControl.rawValue
                ? " (for HapticIntensityControl this silences the player)" : ""
            report(
                .warning, nil, "the Parameter has no ParameterValue; 0 is used, as Core Haptics does\(silences)",
                suggestion: "add \"ParameterValue\"", path: path, at: node.position)
        }
        guard ok, let id, let time else { return nil }
        return DynamicParameterData(id: CHHapticDynamicParameter.ID(rawValue: id), value: value, time: time)
    }

    mutating func decodeCurve(_ member: JSONMember, path: String) -> ParameterCurveData? {
        guard requireObject(member, path: path) else { return nil }
        let node = member.value
        let members = self.members(of: node, path: path, known: Keys.curve)
        let id = dynamicID(members, node: node, path: path, kind: "ParameterCurve")
        var ok = id != nil
        requirePresent(
            members["Time"], .badParameterEntry, "the ParameterCurve has no Time",
            suggestion: "add \"Time\" (seconds from the pattern start)", node: node, path: path, ok: &ok)
        let time = readNumber(members["Time"], in: path, ok: &ok)
        var points: [ControlPointData] = []
        if let list = members["ParameterCurveControlPoints"] {
            let listPath = Self.join(path, "ParameterCurveControlPoints")
            if case .array(let entries) = list.value.value {
                for (index, entry) in entries.enumerated() {
                    if let point = decodePoint(entry, path: "\(listPath)[\(index)]", ok: &ok) { points.append(point) }
                }
            } else {
                report(
                    .error, .invalidPatternDictionary,
                    "ParameterCurveControlPoints must be an array, found \(list.value.typeDescription)",
                    path: listPath, at: list.value.position)
                ok = false
            }
        }
        guard ok, let id, let time else { return nil }
        return ParameterCurveData(id: CHHapticDynamicParameter.ID(rawValue: id), time: time, points: points)
    }

    /// A control point, or nil: with `ok` set to false for an error, or left as it is when the point is
    /// dropped with a warning (no `ParameterValue`: docs/decisions.md "AHAP leniency").
    mutating func decodePoint(_ node: JSONNode, path: String, ok curveOK: inout Bool) -> ControlPointData? {
        guard case .object = node.value else {
            report(
                .error, .badParameterEntry, "a control point must be an object, found \(node.typeDescription)",
                path: path, at: node.position)
            curveOK = false
            return nil
        }
        let members = self.members(of: node, path: path, known: Keys.point)
        var ok = true
        requirePresent(
            members["Time"], .badParameterEntry, "the control point has no Time",
            suggestion: "add \"Time\" (seconds from the curve's Time)", node: node, path: path, ok: &ok)
        let time = readNumber(members["Time"], in: path, ok: &ok)
        guard members["ParameterValue"] != nil else {
            report(
                .warning, nil, "the control point has no ParameterValue; it is dropped (Core Haptics' reader drops it)",
                suggestion: "add \"ParameterValue\"", path: path, at: node.position)
            if !ok { curveOK = false }
            return nil
        }
        let value = readFloat(members["ParameterValue"], in: path, ok: &ok)
        guard ok, let time, let value else {
            curveOK = false
            return nil
        }
        return ControlPointData(time: time, value: value)
    }
}
