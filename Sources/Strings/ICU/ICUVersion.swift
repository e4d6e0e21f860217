import CICU

/// The version of the system ICU that formats, negotiates and lints, e.g. "72.1".
public let icuVersion: String = String(cString: lookd_icu_version())
