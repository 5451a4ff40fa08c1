import Foundation
import Karc

// `karc` runs a short, narrated session with a live Karc model: every command
// goes through the domain's `send`, and the reply, the events and the change
// of state are printed, in that order, the same on every run. (The interactive shell and the demo cluster replace this in
// the shell and demo issues.)

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
    usage: karc [--help] [--version]

    Runs a narrated session with a live Karc model: a counter whose
    "milestones" pipeline starts once the count reaches 3.
    """)
    exit(0)
}
if arguments.contains("--version") {
    print("karc 0.1.0")
    exit(0)
}
if let unknown = arguments.first {
    printError("karc: unknown argument '\(unknown)'; accepted: --help, --version")
    exit(2)
}

func describe(_ reply: any Sendable) -> String {
    reply is Void ? "ok" : "\(reply)"
}

do {
    try await TallyModel.setUp(.init(environ: Environ()))
    let tally = try await TallyDomain.get

    let script: [(String, any TallyCommand)] = [
        ("tally.add amount=2", Add(amount: 2)),
        ("tally.celebrate", Celebrate()),
        ("tally.add", Add()),
        ("tally.celebrate", Celebrate()),
        ("tally.clear", Clear()),
        ("tally.celebrate", Celebrate()),
    ]
    for (line, command) in script {
        print("> \(line)")
        let before = await tally.state
        do {
            print("  reply  \(describe(try await tally.send(command)))")
        } catch {
            print("  error  \(error)")
        }
        // Every command is duplex, so its events were emitted before its reply.
        for event in TallyModel.emitted.take() { print("  event  \(event)") }
        let after = await tally.state
        if after != before { print("  state  \(before) → \(after)") }
    }
    await TallyModel.tearDown()
} catch {
    printError("karc: \(error)")
    exit(1)
}
