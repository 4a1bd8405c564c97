// `import Thrum` stands in for `import CoreHaptics`: like Apple's framework it brings Foundation
// (TimeInterval, URL, Bundle) and the pattern model. The render core and audio resource modules are
// re-exported too, because engine options use their types (ChannelMap, ActuatorProfile, AudioResourceLimits).
@_exported import AudioResources
@_exported import Foundation
@_exported import RenderCore
@_exported import ThrumModel
