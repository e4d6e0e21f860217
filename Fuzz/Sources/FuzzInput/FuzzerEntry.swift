import CFuzzDriver

/// Starts libFuzzer from an executable's entry point. SwiftPM (tools 5.5+) links `main` to `<Target>_main`,
/// which keeps libFuzzer's own `main` out; each target defines that symbol and calls `run` with its callback.
public enum FuzzerEntry {
    /// Runs libFuzzer's driver with the process's arguments over `callback`; returns the exit status.
    public static func run(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                           _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
        var count = argc
        var vector = argv
        return LLVMFuzzerRunDriver(&count, &vector, callback)
    }
}
