import Foundation
import ThrumCommandLine

exit(ThrumCommandLine.main())
