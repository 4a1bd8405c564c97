import Foundation
import ThrumCommandLine

exit(ThrumCommandLine.main(Array(CommandLine.arguments.dropFirst())))
