import Foundation

/// Runs a release binary beside this benchmark with `arguments`; its standard output's JSON lines, and the wall time.
func runJSONLines(_ binary: String, _ arguments: [String]) throws -> (lines: [[String: Any]], seconds: Double) {
    let process = Process()
    process.executableURL = karcBinary().deletingLastPathComponent().appendingPathComponent(binary)
    process.arguments = arguments
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let elapsed = clock.now - start
    let lines = output.split(separator: 10).compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
    return (lines, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

/// `karc explore` on the demo: generated commands run per second, the child
/// process that runs them, its start and each run's fresh cluster included.
func exploreCommands(runs: Int, steps: Int) throws -> Double {
    let out = NSTemporaryDirectory() + "karc-bench-explore-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (lines, seconds) = try runJSONLines(
        "karc", ["explore", "--runs", "\(runs)", "--steps", "\(steps)", "--seed", "1", "--json", "--out", out])
    let summary = lines.last { $0["kind"] as? String == "summary" }
    let commands = summary?["commands"] as? Int ?? 0
    precondition(summary?["failures"] as? Int == 0 && commands == runs * steps, "explore on the demo: \(lines)")
    return Double(commands) / seconds
}

/// `explore-planted explore --bug combo`: a crash met after a few hundred
/// commands, shrunk to its five; the shrink's seconds and the lengths.
func exploreShrink() throws -> (seconds: Double, original: Int, shrunk: Int) {
    let out = NSTemporaryDirectory() + "karc-bench-shrink-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (lines, _) = try runJSONLines(
        "explore-planted", ["explore", "--bug", "combo", "--seed", "1", "--steps", "1000", "--runs", "5", "--json", "--out", out])
    guard let failure = lines.first(where: { $0["kind"] as? String == "failure" }), let seconds = failure["shrinkSeconds"] as? Double,
        let original = failure["original"] as? Int, let shrunk = failure["shrunk"] as? Int
    else { preconditionFailure("explore-planted found nothing: \(lines)") }
    return (seconds, original, shrunk)
}
