import Foundation

/// The interactive loop: a prompt naming the cluster, one line at a time.
/// A failed command does not end the session.
struct Prompt {
    let session: ShellSession

    func run() async -> ScriptRunner.Result {
        let sink = session.renderer.sink
        if !session.options.quiet {
            sink.write("karc shell on \(session.cluster.name): type :help for the targets and commands, :quit to leave")
        }
        while true {
            sink.writeRaw("\(session.cluster.name)> ")
            sink.flush()
            guard let line = readLine(strippingNewline: true) else {
                sink.writeRaw("\n")
                return .succeeded
            }
            if await session.execute(line, at: .init(script: nil, line: nil)) == .quit { return .succeeded }
        }
    }
}
