// `import Thrum` stands in for `import CoreHaptics`: like Apple's framework it brings Foundation
// (TimeInterval, URL, Bundle) and the pattern model.
@_exported import Foundation
@_exported import ThrumModel
