import Foundation

// Built with `make fuzz` (`-sanitize=fuzzer -DKARC_FUZZ`), libFuzzer drives
// `LLVMFuzzerTestOneInput` with the target KARC_FUZZ_TARGET names. Built as
// usual, `karc-fuzz TARGET PATH…` runs each file (or each file in each
// directory) once: the committed corpus replayed by `make test`.
#if KARC_FUZZ
/// The target, read once: libFuzzer's arguments are its own.
private let target = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["KARC_FUZZ_TARGET"] ?? "") ?? .line

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    target.run(UnsafeRawBufferPointer(start: data, count: count))
    return 0
}

/// Before the first input: each target once, so what lives for the whole
/// process (the catalog, the runtime's caches) is made before libFuzzer
/// counts allocations for its leak check.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    for warmUp in FuzzTarget.warmUps { warmUp.withUnsafeBytes { target.run($0) } }
    return 0
}

/// libFuzzer's driver (`FuzzerInterface.h`), linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// The executable's entry point under the name SwiftPM links it by: it hands over to libFuzzer's driver.
@_cdecl("karc_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOne)
}
#else
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: karc-fuzz \(names) FILE|DIRECTORY…\n".utf8))
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("karc-fuzz: cannot read \(file)\n".utf8))
                    exit(1)
                }
                data.withUnsafeBytes { target.run($0) }
                count += 1
            }
        }
        print("karc-fuzz \(name): \(count) inputs, each answered")
    }

    /// `path` itself, or the files in it, sorted.
    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
#endif
