import Foundation

/// `inspect.bigstate.drawn`: what a person waits for in the page, in
/// headless chromium (Benchmarks/browser/bigstate_draw.py), when they select
/// a command on a 10,000-element state: the click to its changed target's
/// top level drawn, then the click on the list to its first 200 elements
/// drawn. The release `karc --inspect` runs a script that fills the demo's
/// articles with 10,000 and likes two of them; the two likes are selected in
/// turn. Milliseconds, medians; nil without chromium and chromedriver
/// (`scripts/setup.sh --test` installs them).
func inspectBigStateDrawn(rounds: Int) async throws -> (selected: Double, opened: Double, total: Double)? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") else { return nil }
    let size = 10_000
    var lines = [":diff off", "identity.login email=bench@example.com password=s3cret!"]
    for index in 0..<size { lines.append("articles.add title=\"article \(index)\"") }
    // The fill runs faster than the inspector's budget (1,000 messages a second, a bucket of 1,000, at most
    // one bucket in debt), which leaves most of it out; two seconds refill it, so the two likes are shown.
    lines += [":diff on", ":sleep 2s", "articles.like id=5000", "articles.like id=5001"]
    // The two likes are the last two commands: `:diff` is numbered as any line is.
    let (first, second) = (lines.count - 1, lines.count)
    let process = Process()
    process.executableURL = karcBinary()
    process.arguments = ["--inspect", "--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state", "--tick", "3600s"]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    defer {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
    let url = inspectorURL(printedOn: stderr)
    // Kept open: the session lives while the page is looked at.
    stdin.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    // The page opens once the script ran (the two likes printed their diffs), as a person would open
    // it to look at a session: while it runs, the inspector's budget skips most of a script this fast.
    var printed = ""
    while printed.components(separatedBy: "+       likes: 1").count < 3 {
        let data = stdout.fileHandleForReading.availableData
        guard !data.isEmpty else { fatalError("karc ended before the script ran: \(printed.suffix(500))") }
        printed += String(decoding: data, as: UTF8.self)
    }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("browser/bigstate_draw.py").path
    let browser = Process()
    browser.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    browser.arguments = [script, url, "\(first)", "\(second)", "\(rounds)"]
    let output = Pipe()
    browser.standardOutput = output
    try browser.run()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    browser.waitUntilExit()
    guard browser.terminationStatus == 0,
        let match = said.firstMatch(of: /selected ([0-9.]+) opened ([0-9.]+) total ([0-9.]+)/),
        let selected = Double(match.1), let opened = Double(match.2), let total = Double(match.3)
    else { fatalError("bigstate_draw.py failed (\(browser.terminationStatus)): \(said)") }
    return (selected, opened, total)
}
