// Every fuzz target in one libFuzzer executable: one build and one sanitized link instead of
// one a target (make test's fuzz build: 173 s cold, about 240 s before). The name it runs
// under picks the target (FuzzTargets.swift holds the table; scripts/fuzz.sh links each name
// to it). Only functions here: libFuzzer's main runs, never this file's top-level code.

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = chosenTarget
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    chosenTarget(start, count)
}
