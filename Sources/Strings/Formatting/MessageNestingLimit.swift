import CICU

/// How deeply a MessageFormat pattern may nest plural, select, selectordinal and choice sub-messages: ICU's
/// nesting level, so a branch of a top-level `{n, plural, …}` is level 1 and a select inside that branch level 2.
///
/// Every parse of a pattern (formatting, catalogs at load, lint, import and export) refuses a deeper one before
/// any recursive parser runs on it: the shim reports the error name `tooDeepErrorName` with the offset of the
/// first sub-message past the limit. ICU's own parser recurses about three frames per level and overflows an
/// 8 MiB stack near 28,000 levels, so without this bound one request could end the process.
public enum MessageNestingLimit {
    /// The deepest nesting level accepted (100).
    public static let levels = Int(LOOKD_MESSAGE_NESTING_LIMIT)
    /// The error name a too deeply nested pattern is refused with, in place of an ICU error name.
    public static let tooDeepErrorName = "LOOKD_NESTING_TOO_DEEP"
}
