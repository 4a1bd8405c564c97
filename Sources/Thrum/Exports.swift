// `import Thrum` stands in for `import CoreHaptics`: like Apple's framework it brings Foundation
// (TimeInterval, URL, Bundle) and the pattern model. Of the render core and the audio resources it
// re-exports only the types `CHHapticEngine.Options` is made of (channel map, actuators and their profiles, audio
// limits, analysis settings) and the errors their initialisers throw; the renderer, compiled patterns and the file loader
// stay internal to the package (its CLI and tests import those modules explicitly).
@_exported import Foundation
@_exported import ThrumModel
@_exported public import struct AudioAnalysis.AnalysisSettings
@_exported public import struct AudioResources.AudioResourceLimits
@_exported public import struct RenderCore.Actuator
@_exported public import struct RenderCore.ActuatorPosition
@_exported public import struct RenderCore.ActuatorProfile
@_exported public import struct RenderCore.ActuatorLatency
@_exported public import struct RenderCore.EqualizationPoint
@_exported public import enum RenderCore.ActuatorProfileError
@_exported public import struct RenderCore.ChannelMap
@_exported public import enum RenderCore.ChannelMapError
@_exported public import enum RenderCore.ChannelSource
@_exported public import enum RenderCore.IntensityLaw
