import FoundationEssentials
import FoundationStandIns

/// A problem found in a pattern: an error Core Haptics would refuse, or a warning about something it
/// quietly changes. The codec adds the file position; the engine throws the first error.
package struct PatternIssue: Sendable, Equatable {
    /// How serious a problem is.
    package enum Severity: String, Sendable { case error, warning }

    /// Where in a pattern a problem is.
    package enum Element: Sendable, Equatable {
        case pattern
        case version
        case event(Int)
        case parameter(Int)
        case curve(Int)
    }

    package var severity: Severity
    /// The Core Haptics error this is (or would be, for a warning); nil when none fits.
    package var code: CHHapticError.Code?
    /// One line saying what is wrong.
    package var message: String
    /// What to do about it, if there is something simple.
    package var suggestion: String?
    /// The pattern entry it is in.
    package var element: Element
    /// The place inside that entry, as an AHAP key path (`EventParameters[1]`, `EventDuration`); nil = the entry.
    package var subpath: String?

    /// Creates an issue.
    package init(
        _ severity: Severity, _ code: CHHapticError.Code?, _ message: String, suggestion: String? = nil,
        element: Element, subpath: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.element = element
        self.subpath = subpath
    }
}

/// Checks a `PatternData` against Core Haptics' rules (`docs/core-haptics-behaviour.md` §1, docs/decisions.md
/// "AHAP leniency"). Pure and thread-safe.
package enum PatternValidator {
    /// Every problem in `pattern`, in pattern order.
    package static func issues(in pattern: PatternData) -> [PatternIssue] {
        var issues: [PatternIssue] = []
        if pattern.isEmpty {
            issues.append(
                PatternIssue(
                    .error, .invalidPatternDictionary, "the pattern has no events, parameters or curves",
                    suggestion: "add at least one Event to \"Pattern\"", element: .pattern))
        }
        if let version = pattern.version, !HapticLimits.supportedVersions.contains(version) {
            issues.append(
                PatternIssue(
                    .warning, .notSupported,
                    "Version \(formatted(version)) is outside 1.0–1.1: Core Haptics refuses to load it (Thrum plays it)",
                    suggestion: "set \"Version\": 1.0", element: .version))
        }
        for (index, event) in pattern.events.enumerated() {
            issues += eventIssues(event, element: .event(index))
        }
        for (index, parameter) in pattern.parameters.enumerated() {
            issues += parameterIssues(parameter, element: .parameter(index))
        }
        for (index, curve) in pattern.curves.enumerated() {
            issues += curveIssues(curve, element: .curve(index))
        }
        if pattern.events.contains(where: { $0.type == .audioCustom }) {
            let note = "AudioPitchControl also transposes this pattern's audio files by varispeed in Thrum; Core Haptics may not change a file's pitch"
            for (index, parameter) in pattern.parameters.enumerated() where parameter.id == .audioPitchControl {
                issues.append(PatternIssue(.warning, nil, note, element: .parameter(index), subpath: "ParameterID"))
            }
            for (index, curve) in pattern.curves.enumerated() where curve.id == .audioPitchControl {
                issues.append(PatternIssue(.warning, nil, note, element: .curve(index), subpath: "ParameterID"))
            }
        }
        return issues
    }

    /// The first error in `pattern` as a `CHHapticError`, or nil when it can be played.
    package static func firstError(in pattern: PatternData) -> CHHapticError? {
        guard let issue = issues(in: pattern).first(where: { $0.severity == .error }) else { return nil }
        return CHHapticError(issue.code ?? .invalidPatternData, issue.message)
    }

    static func eventIssues(_ event: EventData, element: PatternIssue.Element) -> [PatternIssue] {
        var issues: [PatternIssue] = []
        func add(
            _ severity: PatternIssue.Severity, _ code: CHHapticError.Code?, _ message: String,
            suggestion: String? = nil, at subpath: String? = nil
        ) {
            issues.append(PatternIssue(severity, code, message, suggestion: suggestion, element: element, subpath: subpath))
        }
        guard event.type.isKnown else {
            let names = CHHapticEvent.EventType.allKnown.map(\.rawValue)
            let guess = Suggestions.closest(to: event.type.rawValue, in: names)
            add(
                .error, .invalidEventType, "unknown EventType \"\(event.type.rawValue)\"",
                suggestion: guess.map { "did you mean \"\($0)\"?" }
                    ?? "use one of \(names.joined(separator: ", "))",
                at: "EventType")
            return issues
        }
        if let problem = timeProblem(event.time, "event Time") {
            add(.error, .invalidEventTime, problem, at: "Time")
        }
        let duration = event.duration ?? 0
        let cappedContinuous = event.type == .hapticContinuous && duration > HapticLimits.maxContinuousDuration
        if let problem = timeProblem(duration, "EventDuration"), !(cappedContinuous && duration.isFinite) {
            add(.error, .invalidEventDuration, problem, at: "EventDuration")
        } else if HapticLimits.isPlayableTime(event.time), !HapticLimits.isPlayableTime(event.time + event.playedDuration) {
            add(
                .error, .invalidEventDuration,
                "the event ends at \(formatted(event.time + event.playedDuration)) s, past \(limitText)", at: "EventDuration")
        } else if (event.type == .hapticContinuous || event.type == .audioContinuous) && event.isSustained
            && duration == 0
        {
            add(
                .error, .invalidEventDuration,
                "a sustained \(event.type.rawValue) event needs an EventDuration greater than 0",
                suggestion: "add \"EventDuration\", or set Sustained to 0",
                at: event.duration == nil ? nil : "EventDuration")
        } else if event.type == .hapticContinuous && duration > HapticLimits.maxContinuousDuration {
            add(
                .warning, .invalidEventDuration,
                "EventDuration \(formatted(duration)) s is capped at 30 s (the Core Haptics limit for HapticContinuous)",
                suggestion: "split it into events of at most 30 s", at: "EventDuration")
        }
        if event.type == .audioCustom {
            if event.waveformPath == nil && event.audioResourceID == nil {
                add(
                    .error, .badEventEntry, "AudioCustom event has no EventWaveformPath",
                    suggestion: "add \"EventWaveformPath\" naming an audio file next to the AHAP file")
            }
            if event.loopEnabled == true && duration == 0 {
                add(
                    .error, .invalidEventDuration,
                    "looping is enabled but the AudioCustom event has no EventDuration",
                    suggestion: "add \"EventDuration\" or remove \"EventWaveformLoopEnabled\"")
            } else if event.waveformPath != nil && duration > 0 && timeProblem(duration, "EventDuration") == nil {
                add(
                    .warning, nil,
                    "Thrum \(event.loopEnabled == true ? "loops" : "cuts") the audio file to EventDuration; Core Haptics may ignore EventDuration on an AHAP AudioCustom event and play the file once, whole",
                    at: "EventDuration")
            }
            if let index = event.parameters.lastIndex(where: { $0.id == .audioPitch }), event.parameters[index].value != 0 {
                add(
                    .warning, nil,
                    "Thrum transposes the audio file by varispeed (AudioPitch ±1 = ±12 semitones, its length changes with it); Core Haptics may not change a file's pitch",
                    at: "EventParameters[\(index)]")
            }
        } else if event.waveformPath != nil {
            add(.warning, nil, "EventWaveformPath is ignored on \(event.type.rawValue) events", at: "EventWaveformPath")
        }
        var seen: Set<CHHapticEvent.ParameterID> = []
        for (index, parameter) in event.parameters.enumerated() {
            let subpath = "EventParameters[\(index)]"
            guard ParameterTable.isKnown(parameter.id) else {
                let names = CHHapticEvent.ParameterID.allKnown.map(\.rawValue)
                let unprefixed = ["Haptic", "Audio"].reduce(parameter.id.rawValue) { name, prefix in
                    name.hasPrefix(prefix) && !names.contains(name) ? String(name.dropFirst(prefix.count)) : name
                }
                let guess = Suggestions.closest(to: parameter.id.rawValue, in: names)
                    ?? Suggestions.closest(to: unprefixed, in: names)
                add(
                    .error, .invalidParameterType, "unknown ParameterID \"\(parameter.id.rawValue)\"",
                    suggestion: guess.map { "did you mean \"\($0)\"?" }, at: subpath)
                continue
            }
            guard let attributes = ParameterTable.attributes(for: parameter.id, eventType: event.type) else {
                add(
                    .error, .invalidParameterType,
                    "\(parameter.id.rawValue) is not a parameter of \(event.type.rawValue) events",
                    suggestion: event.type.isHaptic
                        ? "haptic events take HapticIntensity, HapticSharpness and envelope parameters"
                        : "audio events take AudioVolume, AudioPan, AudioPitch, AudioBrightness and envelope parameters",
                    at: subpath)
                continue
            }
            if !attributes.contains(parameter.value) {
                add(
                    .warning, nil,
                    "\(parameter.id.rawValue) \(formatted(parameter.value)) is outside \(formatted(attributes.minValue))…\(formatted(attributes.maxValue)); clamped to \(formatted(attributes.clamp(parameter.value)))",
                    at: subpath)
            }
            if !seen.insert(parameter.id).inserted {
                add(.warning, nil, "\(parameter.id.rawValue) is given twice in one event; the last one wins", at: subpath)
            }
        }
        return issues
    }

    static func dynamicIDIssue(
        _ id: CHHapticDynamicParameter.ID, element: PatternIssue.Element, curve: Bool
    ) -> PatternIssue? {
        guard ParameterTable.attributes(for: id) != nil else {
            let names = (CHHapticDynamicParameter.ID.allKnown + CHHapticDynamicParameter.ID.thrumExtensions).map(\.rawValue)
            let guess = Suggestions.closest(to: id.rawValue, in: names)
                ?? Suggestions.closest(to: id.rawValue + "Control", in: names)
            return PatternIssue(
                .error, .invalidParameterType, "unknown dynamic ParameterID \"\(id.rawValue)\"",
                suggestion: guess.map { "did you mean \"\($0)\"?" }, element: element, subpath: "ParameterID")
        }
        if curve && !id.isCurveCapable {
            return PatternIssue(
                .error, .invalidParameterType, "\(id.rawValue) cannot be a ParameterCurve in Core Haptics",
                suggestion: "use a \"Parameter\" step, or one of "
                    + CHHapticDynamicParameter.ID.curveCapable.map(\.rawValue).joined(separator: ", "),
                element: element, subpath: "ParameterID")
        }
        if id.isThrumExtension {
            return PatternIssue(
                .warning, .invalidParameterType,
                "\(id.rawValue) is Thrum's own parameter (haptic panning between actuators); Core Haptics rejects it",
                element: element, subpath: "ParameterID")
        }
        return nil
    }

    static func parameterIssues(_ parameter: DynamicParameterData, element: PatternIssue.Element) -> [PatternIssue] {
        var issues: [PatternIssue] = []
        if let issue = dynamicIDIssue(parameter.id, element: element, curve: false) {
            guard issue.severity == .warning else { return [issue] }
            issues.append(issue)
        }
        if let problem = timeProblem(parameter.time, "parameter Time") {
            issues.append(
                PatternIssue(
                    .error, parameter.time < 0 ? .badParameterEntry : .invalidTime, problem,
                    element: element, subpath: "Time"))
        }
        if let attributes = ParameterTable.attributes(for: parameter.id), !attributes.contains(parameter.value) {
            issues.append(
                PatternIssue(
                    .warning, nil,
                    "\(parameter.id.rawValue) \(formatted(parameter.value)) is outside \(formatted(attributes.minValue))…\(formatted(attributes.maxValue)); clamped to \(formatted(attributes.clamp(parameter.value)))",
                    element: element, subpath: "ParameterValue"))
        }
        return issues
    }

    static func curveIssues(_ curve: ParameterCurveData, element: PatternIssue.Element) -> [PatternIssue] {
        var issues: [PatternIssue] = []
        if let issue = dynamicIDIssue(curve.id, element: element, curve: true) {
            guard issue.severity == .warning else { return [issue] }
            issues.append(issue)
        }
        func add(_ severity: PatternIssue.Severity, _ code: CHHapticError.Code?, _ message: String, suggestion: String? = nil, at subpath: String?) {
            issues.append(PatternIssue(severity, code, message, suggestion: suggestion, element: element, subpath: subpath))
        }
        if let problem = timeProblem(curve.time, "curve Time") {
            add(.error, curve.time < 0 ? .badParameterEntry : .invalidTime, problem, at: "Time")
        }
        if curve.points.isEmpty {
            add(.warning, .badParameterEntry, "the curve has no control points and does nothing", at: "ParameterCurveControlPoints")
        }
        if curve.points.count > HapticLimits.maxCurvePoints {
            add(
                .warning, nil,
                "the curve has \(curve.points.count) control points; Core Haptics limits curves to 16 (Thrum plays all of them)",
                suggestion: "split it into curves of at most 16 points", at: "ParameterCurveControlPoints")
        }
        let attributes = ParameterTable.attributes(for: curve.id)
        var previousTime = -TimeInterval.infinity
        for (index, point) in curve.points.enumerated() {
            let subpath = "ParameterCurveControlPoints[\(index)]"
            if let problem = timeProblem(point.time, "control point Time") {
                add(.error, point.time < 0 ? .badParameterEntry : .invalidTime, problem, at: subpath)
            } else if HapticLimits.isPlayableTime(curve.time), !HapticLimits.isPlayableTime(curve.time + point.time) {
                add(
                    .error, .invalidTime,
                    "the control point is at \(formatted(curve.time + point.time)) s, past \(limitText)", at: subpath)
            } else if point.time < previousTime {
                add(.warning, nil, "control point times go backwards; points are played sorted by time", at: subpath)
            }
            previousTime = max(previousTime, point.time)
            if let attributes, !attributes.contains(point.value) {
                add(
                    .warning, nil,
                    "\(curve.id.rawValue) \(formatted(point.value)) is outside \(formatted(attributes.minValue))…\(formatted(attributes.maxValue)); clamped to \(formatted(attributes.clamp(point.value)))",
                    at: subpath)
            }
        }
        if let first = curve.points.first, curve.time > 0, first.time == curve.time {
            add(
                .warning, nil,
                "the first control point's Time equals the curve's Time (\(formatted(curve.time))): the file looks exported with absolute times, but point times are relative to the curve",
                suggestion: "subtract the curve's Time from each point's Time", at: "ParameterCurveControlPoints[0]")
        }
        return issues
    }

    /// "86400 s, the longest pattern Thrum plays (24 h)".
    static let limitText = "\(formatted(HapticLimits.maxPatternDuration)) s, the longest pattern Thrum plays (24 h)"

    /// Why `seconds` (named `name` in the message) cannot be played, or nil when it can.
    package static func timeProblem(_ seconds: Double, _ name: String) -> String? {
        if !seconds.isFinite { return "\(name) \(formatted(seconds)) is not a finite number" }
        if seconds < 0 { return "\(name) \(formatted(seconds)) is negative" }
        if seconds > HapticLimits.maxPatternDuration { return "\(name) \(formatted(seconds)) s is past \(limitText)" }
        return nil
    }

    /// A number for messages: shortest exact form (`0.5`, `30`, `-1.25`); from 10⁷ on, `%g` (`2e+14`).
    package static func formatted(_ value: Double) -> String {
        if value.isFinite && abs(value) >= 1e7 { return String(cFormat: "%g", value) }
        if value.isFinite && value == value.rounded() { return String(Int64(value)) }
        return "\(value)"
    }

    /// A `Float` for messages (`0.75`, `1`, `1.2`).
    package static func formatted(_ value: Float) -> String {
        if value.isFinite && value == value.rounded() && abs(value) < 1e7 { return String(Int64(value)) }
        return "\(value)"
    }
}
