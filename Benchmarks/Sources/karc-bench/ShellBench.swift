import Foundation

/// The release `karc` binary beside this benchmark (`make bench` builds both).
func karcBinary() -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("karc")
}

/// Runs `karc arguments` with `input` on standard input; returns its standard output's size in lines (notes not counted).
func runKarc(_ arguments: [String], input: Data, environment: [String: String] = [:]) throws -> Int {
    let process = Process()
    process.executableURL = karcBinary()
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    let writer = stdin.fileHandleForWriting
    let feeding = Thread {
        writer.write(input)
        try? writer.close()
    }
    feeding.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "karc \(arguments) exited with \(process.terminationStatus)")
    // Lines, less the notes and each command's `done` (`--json` prints the history limit's note as a line of
    // its own, `{"kind":"note",…`: keys are sorted, and neither has a key before `kind`). One pass over the
    // bytes: this is inside the timed part.
    let note = Array(#"{"kind":"note""#.utf8)
    let done = Array(#"{"kind":"done""#.utf8)
    return output.withUnsafeBytes { bytes -> Int in
        var lines = 0
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 10 {
            let isNote = index - start >= note.count && note.indices.allSatisfy { bytes[start + $0] == note[$0] }
            let isDone = index - start >= done.count && done.indices.allSatisfy { bytes[start + $0] == done[$0] }
            if !isNote, !isDone { lines += 1 }
            start = index + 1
        }
        return lines
    }
}

/// A piped script of `n` `counter.increment` commands with `--json`: commands
/// per second, start-up included. Two runs, no warm-up: each is a process of its own.
func shellScriptJSON(_ n: Int, trace: Bool = false) async throws -> Double {
    let script = Data(String(repeating: "counter.increment value=1\n", count: n).utf8)
    var rates: [Double] = []
    for _ in 0..<2 {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let flags = ["--json", "--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state"] + (trace ? ["--trace"] : [])
            let lines = try runKarc(flags, input: script)
            // A state line a command, and with --trace its tree.
            precondition(lines == n * (trace ? 2 : 1), "expected \(n) commands' lines, got \(lines)")
        }
        rates.append(Double(n) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
    }
    return rates.max() ?? 0
}

/// The peak resident memory, in MB, of `karc --json` running a piped script
/// of `n` commands (read by `/usr/bin/time -f %M`, as a user would check it).
func shellScriptRSS(_ n: Int) throws -> Double {
    try peakMegabytes(ofKarcOn: Data(String(repeating: "counter.increment value=1\n", count: n).utf8))
}

/// The peak resident memory, in MB, of `karc --json --fresh` running the
/// piped `script` (read by `/usr/bin/time -f %M`); the script must succeed.
func peakMegabytes(ofKarcOn script: Data) throws -> Double {
    let report = NSTemporaryDirectory() + "karc-bench-rss-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: report) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = [
        "-f", "%M", "-o", report, karcBinary().path, "--json", "--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state",
    ]
    let stdin = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let writer = stdin.fileHandleForWriting
    Thread {
        writer.write(script)
        try? writer.close()
    }.start()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "karc exited with \(process.terminationStatus)")
    let kilobytes = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last.flatMap { Double($0) } ?? 0
    return kilobytes / 1024
}

/// `karc -e ':quit'` wall time, start to exit, in milliseconds (median).
func shellStartup() async throws -> Double {
    let perSecond = try await rate(operations: 1) {
        _ = try runKarc(["-e", ":quit", "--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state"], input: Data())
    }
    return 1_000 / perSecond
}

/// Commands per second when each command appends one article to a list that
/// already holds `size` (the demo's `articles`, readable or `--json`): the
/// time of a run that builds the list and then appends `n` more, less the
/// time of a run that only builds it, over `n`. The list is built with
/// `:diff off`, so building costs what sending costs. Each run is repeated
/// three times, alternating, and the fastest of each kind is taken: the
/// difference of two process runs is what is measured, and a slow neighbour
/// would otherwise decide it. With `keepingSize`, every other command
/// removes the article the one before added, so the list keeps its size
/// (to compare a command's cost at two sizes).
func shellBigState(size: Int, n: Int, json: Bool, keepingSize: Bool = false, watches: [String] = []) throws -> Double {
    func script(appending count: Int) -> Data {
        var lines = [":diff off", "identity.login email=bench@example.com password=s3cret!"]
        for index in 0..<size { lines.append("articles.add title=\"article \(index)\"") }
        lines.append(":diff on")
        lines += watches.map { ":watch " + $0 }
        for index in 0..<count {
            if keepingSize, index.isMultiple(of: 2) == false {
                lines.append("articles.remove id=\(size + (index + 1) / 2)")  // the one added just before: ids count on from `size`
            } else {
                lines.append("articles.add title=\"appended \(index)\"")
            }
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }
    let arguments = (json ? ["--json"] : []) + ["--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state"]
    let clock = ContinuousClock()
    let building = script(appending: 0)
    let appending = script(appending: n)
    var base = Duration.seconds(1_000_000)
    var full = Duration.seconds(1_000_000)
    for _ in 0..<3 {
        base = min(base, try clock.measure { _ = try runKarc(arguments, input: building) })
        full = min(full, try clock.measure { _ = try runKarc(arguments, input: appending) })
    }
    let seconds = (full - base).seconds
    return seconds > 0 ? Double(n) / seconds : .infinity
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
