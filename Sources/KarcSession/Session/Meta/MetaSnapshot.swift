import KarcHistory
import KarcOutput

/// `:snapshot NAME`: keeps the state of every target that can be restored;
/// `:snapshot save NAME FILE` and `:snapshot load FILE [NAME]` keep one
/// across sessions.
enum MetaSnapshot: MetaCommand {
    static let name = "snapshot"
    static let arguments = "NAME | save … | load …"
    static let summary = "keep the state of every target that can be restored, to :restore later (or in a file)"
    static let details = [
        ":snapshot before-login             keep the states now, as 'before-login'",
        ":snapshot save before-login s.json  write it to a file (JSON, readable by you alone; --force replaces one this session did not write)",
        ":snapshot load s.json              keep the file's snapshot (under its name, or the one given after the file)",
        "Value stores and Karc models are kept; an actor model only when it is Restorable (the others are named).",
        "Taking one under a name kept already replaces it, and says when the one replaced was taken.",
        "A file is read only into the cluster it was saved from, and only when every state still fits its type.",
    ]
    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        switch (position, words.first) {
        case (0, _): MetaCompletions(candidates: ["save", "load"].filter { $0.hasPrefix(words[0]) })
        case (1, "save"?): MetaCompletions(candidates: context.snapshots())
        case (2, "save"?), (1, "load"?): MetaCompletions(candidates: Completer.paths(startingWith: words[position]), suffix: "")
        default: nil
        }
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let first = call.arguments.first else {
            return context.fail(":snapshot needs a name: :snapshot before-login (:snapshots lists those kept)", in: call)
        }
        switch first.value {
        case "save": return await save(call, in: context)
        case "load": return await load(call, in: context)
        default:
            if let extra = call.arguments.dropFirst().first {
                return context.fail(":snapshot NAME takes nothing after the name", column: extra.column, in: call)
            }
            guard let name = context.snapshotName(first, in: call), let kept = await context.takeSnapshot(named: name, in: call) else {
                return .failed
            }
            context.keep(snapshot: kept)
            return .succeeded
        }
    }

    private static func save(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let force = call.arguments.contains { $0.value == "--force" }
        let arguments = call.arguments.dropFirst().filter { $0.value != "--force" }
        guard arguments.count == 2 else {
            return context.fail(
                ":snapshot save takes a snapshot's name and a file: :snapshot save before-login before.json (--force replaces a file this session did not write)",
                column: arguments.dropFirst(2).first?.column,
                in: call)
        }
        guard let kept = context.keptSnapshot(arguments[0], in: call) else { return .failed }
        let text: String
        do {
            text = try SnapshotFile.text(kept, cluster: context.cluster.name)
        } catch {
            return context.fail(error.message, column: arguments[0].column, in: call)
        }
        let replace = ":snapshot save --force \(kept.name) \(arguments[1].value)"
        guard await context.write(text, to: arguments[1], force: force, replace: replace, in: call) else { return .failed }
        if !context.options.printing.quiet { context.renderer.log("wrote the snapshot '\(kept.name)' to \(arguments[1].value)") }
        return .succeeded
    }

    private static func load(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        let arguments = Array(call.arguments.dropFirst())
        guard let file = arguments.first, arguments.count <= 2 else {
            return context.fail(
                ":snapshot load takes a file, and a name to keep it under: :snapshot load before.json [NAME]",
                column: arguments.dropFirst(2).first?.column, in: call)
        }
        var name: String?
        if let given = arguments.dropFirst().first {
            guard let valid = context.snapshotName(given, in: call) else { return .failed }
            name = valid
        }
        guard let restoring = context.capabilities.restoring else {
            return context.fail("cannot load a snapshot: " + ShellClusterCapabilities.cannotRestore, in: call)
        }
        let text: String
        do {
            text = try await context.host.read(file.value)
        } catch {
            return context.fail(error.message, column: file.column, in: call)
        }
        do {
            let kept = try SnapshotFile.read(text, path: file.value, into: restoring, name: name)
            context.keep(snapshot: kept)
            return .succeeded
        } catch {
            return context.fail(error.message, column: file.column, in: call)
        }
    }
}
