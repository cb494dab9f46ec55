/// Facewatch's version (semantic versioning), printed by `facewatch --version`. The repository's
/// `VERSION` file is the source of truth (Scripts/make-deb names the Debian package after it);
/// this copy must equal it, which `VersionTests` checks and Scripts/make-deb checks again on the
/// binary it packages.
let facewatchVersion = "0.11.0"
