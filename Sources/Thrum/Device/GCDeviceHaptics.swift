import FoundationEssentials
internal import RenderCore

/// The haptics of a device with several actuators on one sound card — a DualSense in USB audio mode, a
/// tactor array on a multichannel interface — shaped like GameController's `GCDeviceHaptics`, so Core
/// Haptics game-controller code ports with the line that obtains the device's haptics changed:
///
/// ```swift
/// #if canImport(GameController)
/// let haptics = GCController.current?.haptics
/// #else
/// let haptics = try? GCDeviceHaptics(options: options)  // options.channelMap = .dualSense, …
/// #endif
/// let woofer = haptics?.createEngine(withLocality: .leftHandle)
/// let tweeter = haptics?.createEngine(withLocality: .rightHandle)
/// ```
///
/// The actuators are the channel map's (`H:NAME` entries, docs/decisions.md "Output"), each with its own profile
/// and position (`CHHapticEngine.Options.actuators`). Every engine made here plays on one locality — one
/// actuator, or each actuator of a group — and they all share one ALSA stream (or offline render core), one
/// render thread and one clock: their `currentTime`s are equal, and an event at time t on two localities
/// lands on the same frame. The stream opens when the first engine starts and closes when the last one
/// stops; offline, `renderOffline` on any of the engines renders the device (every engine's players).
/// - Important: Thread safety: any thread (immutable; its engines have their own contract).
public final class GCDeviceHaptics: Sendable {
    /// The options the device was made with: output, rate, period, channel map, actuators, capacities.
    public let options: CHHapticEngine.Options
    let hub: DeviceHub

    /// A device with `options`; nothing opens until one of its engines starts.
    /// - Throws: `CHHapticError.invalidEngineParameter` for out-of-range options, an actuator the channel map
    ///   does not carry, or a bad actuator profile or position.
    public init(options: CHHapticEngine.Options) throws {
        hub = try DeviceHub(options: options)
        self.options = options
    }

    /// The localities engines can be made for: `default`, `all`, each actuator of the channel map, and
    /// `handles` / `triggers` when the map has one of their actuators.
    public var supportedLocalities: Set<GCHapticsLocality> { hub.layout.supportedLocalities }

    /// The actuators in the channel map's order, with their profiles and positions (a Thrum addition).
    public var actuators: [Actuator] { hub.layout.actuators }

    /// The actuators `locality` covers, in the channel map's order; none when the device has none there (a
    /// Thrum addition).
    public func actuators(in locality: GCHapticsLocality) -> [Actuator] {
        guard let buses = hub.layout.buses(of: locality) else { return [] }
        return hub.layout.actuators.enumerated().filter { buses & 1 << UInt64($0.offset) != 0 }.map(\.element)
    }

    /// A new engine whose players play on `locality` (on each of its actuators for a group), or nil when the
    /// device has no actuator there. Engines of one locality may be made several times; all share the device.
    public func createEngine(withLocality locality: GCHapticsLocality) -> CHHapticEngine? {
        guard let buses = hub.layout.buses(of: locality) else { return nil }
        return CHHapticEngine(hub: hub, buses: buses)
    }
}
