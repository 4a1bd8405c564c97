/// Thrum's release version: the one place it is written. `thrum --version`, `thrum_version()`, `thrum.pc`,
/// the Debian package and the Python package all read it from here (scripts take the string between the
/// quotes below).
public enum ThrumVersion {
    /// Semantic version, `MAJOR.MINOR.PATCH`.
    public static let string = "0.3.0"
}
