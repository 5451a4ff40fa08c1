import Foundation
import Karc

// `karc` runs a short, narrated session with a live Karc model: every command
// goes through the domain's `send`, and the reply, the events and the state
// are printed. (The interactive shell and the demo cluster replace this in
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
    let events = tally.receiver()
    let printer = Task {
        for try await event in events { print("  event  \(event)") }
    }

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
        // Let the event printer catch up, so the transcript reads in order.
        try await Task.sleep(for: .milliseconds(20))
        let after = await tally.state
        if after != before { print("  state  \(before) → \(after)") }
    }
    await TallyModel.tearDown()
    _ = try await printer.value
} catch {
    printError("karc: \(error)")
    exit(1)
}
