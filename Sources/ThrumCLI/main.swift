import Foundation
import ThrumCommandLine

exit(ThrumCommandLine.run(Array(CommandLine.arguments.dropFirst())))
