import Foundation
import Testing
import ThrumTestSupport
import Thrum

// Reading actuator profile files (moved from RenderCoreTests with the decoder, unchanged).

@Suite("Actuator profiles")
struct ActuatorProfileTests {
    @Test("built-in constants match Resources/Actuators/*.json", arguments: ["default", "lra", "speaker"])
    func builtIns(name: String) throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Resources/Actuators/\(name).json"))
        let decoded = try ActuatorProfile.decode(from: data)
        let builtIn: ActuatorProfile = name == "default" ? .default : name == "lra" ? .lra : .speaker
        #expect(decoded == builtIn)
    }

    @Test("bad files name the bad field")
    func errors() {
        func message(_ json: String) -> String {
            do {
                _ = try ActuatorProfile.decode(from: Data(json.utf8))
                return "no error"
            } catch {
                return error.description
            }
        }
        #expect(message(#"{"name":"x","highFrequency":200}"#).contains("'lowFrequency' is missing"))
        #expect(message(#"{"name":"x","lowFrequency":"a","highFrequency":200}"#).contains("'lowFrequency'"))
        #expect(message(#"{"name":"x","lowFrequency":80,"highFrequency":200,"law":"cubic"}"#).contains("'law'"))
        #expect(message(#"{"name":"x","lowFrequency":80,"highFrequency":200,"gain":2}"#).contains("'gain'"))
        #expect(message(#"{"name":"x","lowFrequency":80,"highFrequency":60}"#).contains("'highFrequency'"))
        #expect(message(#"{"name":"x","lowFrequency":80,"highFrequency":200,"limiterThreshold":1}"#).contains("'limiterThreshold'"))
        #expect(message(#"{"name":"x","lowFrequency":80,"highFrequency":200,"transientDuration":0.1}"#).contains("'transientDuration'"))
        #expect(message(#"{"name":"x","lowFrequency":80,"highFrequency":200}"#) == "no error")
    }
}
