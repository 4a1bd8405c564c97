import Glibc
import ThrumCommandLine

exit(ThrumCommandLine.main())
