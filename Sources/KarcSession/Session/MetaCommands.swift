import Foundation
import KarcAsync

extension ShellSession {
    /// The meta commands, with what `:help` says about each.
    static let metaCommands: [(name: String, usage: String)] = [
        ("help", ":help [target[.command]]   targets, commands, fields with types and defaults"),
        ("state", ":state [target [path]]     the current state of every target, of one, or a part (items[3].title)"),
        ("history", ":history [n]               the commands sent this session, with their outcome"),
        ("events", ":events on|off|only T…|mute T…   which events are printed"),
        ("wait", ":wait EVENT [timeout]      wait for an event (a timer's, say)"),
        ("sleep", ":sleep DURATION            wait (250ms, 2s, 1m), then print what happened"),
        ("timing", ":timing on|off             print how long each command took"),
        ("diff", ":diff on|off|summary       how changes of state print: diffs, nothing, a line a target"),
        ("source", ":source FILE               run the commands in FILE"),
        ("save", ":save FILE [--all]         write this session's commands that succeeded (or all) as a script"),
        ("export-test", ":export-test FILE.swift    write this session as a Swift test that replays it"),
        ("quit", ":quit                      leave the shell (also :exit, :q, Ctrl-D)"),
    ]

    func meta(_ name: Located<String>, _ arguments: [Located<String>], at location: Location) async -> Outcome {
        let command = name.value.lowercased()
        switch command {
        case "help", "h", "?": return help(arguments, at: location)
        case "state": return await state(arguments, at: location)
        case "history": return showHistory(arguments, at: location)
        case "events": return setEvents(arguments, name: name, at: location)
        case "wait": return await wait(arguments, name: name, at: location)
        case "sleep": return await sleep(arguments, name: name, at: location)
        case "timing": return setTiming(arguments, name: name, at: location)
        case "diff": return setDiff(arguments, name: name, at: location)
        case "source": return await source(arguments, name: name, at: location)
        case "save": return await save(arguments, name: name, at: location)
        case "export-test": return await exportTest(arguments, name: name, at: location)
        case "quit", "exit", "q":
            if let extra = arguments.first {
                return fail(":\(name.value) takes no arguments, got '\(extra.value.clipped)'", column: extra.column, at: location)
            }
            return .quit
        default:
            let names = Self.metaCommands.map(\.name)
            let message =
                "unknown meta command ':\(name.value)'" + Names.didYouMean(command, among: names, prefix: ":")
                + " Meta commands: " + names.map { ":\($0)" }.joined(separator: ", ")
            return fail(message, column: name.column, at: location)
        }
    }

    private func help(_ arguments: [Located<String>], at location: Location) -> Outcome {
        guard let topic = arguments.first else {
            renderer.log("Targets of \(cluster.name) (send with TARGET.COMMAND field=value …):")
            for target in cluster.catalog.targets {
                let commands = target.commands.map(\.name).joined(separator: ", ")
                let note = target.hiddenNote.map { commands.isEmpty ? $0 : "; \($0)" } ?? ""
                renderer.log("  \(target.name) (\(target.kind)): " + commands + note)
            }
            renderer.log("Meta commands:")
            for meta in Self.metaCommands { renderer.log("  " + meta.usage) }
            return .succeeded
        }
        // Empty parts are kept (`.`, `...`, `.x`): each must still be answered, never trap.
        let parts = topic.value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let targetName = parts.first, !targetName.isEmpty else {
            let names = cluster.catalog.targets.map(\.name).joined(separator: ", ")
            return fail(
                "expected a target before '.' (like :help \(cluster.catalog.targets.first?.name ?? "target").command); targets: \(names)",
                column: topic.column, at: location)
        }
        let target: TargetSchema
        do {
            target = try builder.resolveTarget(Located(targetName, column: topic.column))
        } catch {
            return fail(error.message, column: error.column, at: location)
        }
        guard parts.count == 2, let commandName = parts.last, !commandName.isEmpty else {
            renderer.log("\(target.name) (\(target.kind)):")
            for command in target.commands {
                renderer.log("  \(target.name).\(command.synopsis)" + (command.summary.map { "  — \($0)" } ?? ""))
            }
            if let note = target.hiddenNote { renderer.log("  \(note)") }
            return .succeeded
        }
        let command: CommandSchema
        do {
            command = try builder.resolveCommand(Located(commandName, column: topic.column + targetName.count + 1), in: target)
        } catch {
            return fail(error.message, column: error.column, at: location)
        }
        renderer.log("\(target.name).\(command.synopsis)")
        if let summary = command.summary { renderer.log("  \(summary)") }
        guard let fields = command.fields else {
            renderer.log("  fields: a JSON object decoded as \(command.typeName)")
            return .succeeded
        }
        for field in fields {
            var line = "  \(Names.kebab(field.name))  \(field.type)"
            line += field.isRequired ? "  required" : "  optional" + (field.defaultValue.map { ", default \($0)" } ?? "")
            if case .choice(let choice) = field.type { line += "; one of \(choice.cases.joined(separator: ", "))" }
            if let help = field.help { line += "  — \(help)" }
            renderer.log(line)
            for nested in field.fields ?? [] {
                let requirement = nested.isRequired ? "required" : "optional"
                renderer.log(
                    "    \(Names.kebab(field.name)).\(Names.kebab(nested.name))  \(nested.type)  \(requirement)"
                        + (nested.help.map { "  — \($0)" } ?? ""))
            }
        }
        return .succeeded
    }

    /// At the prompt, a state longer than the screen goes through the pager.
    private func state(_ arguments: [Located<String>], at location: Location) async -> Outcome {
        guard isInteractive, !options.json else { return await printState(arguments, at: location) }
        renderer.sink.flush()
        let outcome = await printState(arguments, at: location)
        await host.page(renderer.sink.takeBuffered())
        return outcome
    }

    private func printState(_ arguments: [Located<String>], at location: Location) async -> Outcome {
        var targets = cluster.catalog.targets
        if let name = arguments.first {
            do {
                targets = [try builder.resolveTarget(name)]
            } catch {
                return fail(error.message, column: error.column, at: location)
            }
        }
        if let path = arguments.dropFirst().first, let target = targets.first {
            if let extra = arguments.dropFirst(2).first {
                return fail(":state takes a target and at most one path", column: extra.column, at: location)
            }
            return await state(of: target, at: path, location: location)
        }
        for target in targets {
            guard let state = await cluster.state(of: target.name) else {
                if arguments.first != nil { renderer.log("\(target.name) has no state") }
                continue
            }
            renderer.snapshot(target: target.name, state)
        }
        return .succeeded
    }

    /// `:state articles items[3]`: one part of a target's state.
    private func state(of target: TargetSchema, at path: Located<String>, location: Location) async -> Outcome {
        let steps: [StatePath.Step]
        switch StatePath.parse(path.value) {
        case .success(let parsed): steps = parsed
        case .failure(let error): return fail(error.message, column: path.column + error.offset - 1, at: location)
        }
        guard let state = await cluster.state(of: target.name) else {
            return fail("\(target.name) has no state", column: path.column, at: location)
        }
        switch StatePath.resolve(state, steps) {
        case .success(let part):
            // The part is shown whole; a target's name and path head it, as a snapshot.
            renderer.snapshot(target: "\(target.name) \(path.value)", part, path: path.value, of: target.name)
            return .succeeded
        case .failure(let error):
            return fail(error.message, column: path.column, at: location)
        }
    }

    private func showHistory(_ arguments: [Located<String>], at location: Location) -> Outcome {
        var count = history.count
        if let argument = arguments.first {
            guard let n = Int(argument.value), n > 0 else {
                return fail("expected a number of commands (like :history 10), got '\(argument.value)'", column: argument.column, at: location)
            }
            count = min(n, history.count)
        }
        let first = history.count - count
        // Numbered as they were sent, counting those dropped by --history-limit.
        for (index, entry) in history.entries.dropFirst(first).enumerated() {
            renderer.log(String(format: "%5d  %@  %@", history.dropped + first + index + 1, entry.outcome == "ok" ? "ok   " : "error", entry.line))
        }
        return .succeeded
    }

    private func setEvents(_ arguments: [Located<String>], name: Located<String>, at location: Location) -> Outcome {
        guard let mode = arguments.first else {
            return fail("expected :events on, off, only TYPE… or mute TYPE…", column: name.column, at: location)
        }
        for type in arguments.dropFirst() {
            if let message = unknownEvent(type.value) { return fail(message, column: type.column, at: location) }
        }
        let types = Set(arguments.dropFirst().map { Names.key($0.value) })
        switch mode.value.lowercased() {
        case "on": events = .all
        case "off": events = .none
        case "only", "mute":
            guard !types.isEmpty else {
                return fail(":events \(mode.value) needs at least one event type", column: mode.column, at: location)
            }
            events = mode.value.lowercased() == "only" ? .only(types) : .mute(types)
        default:
            return fail("expected on, off, only or mute after :events, got '\(mode.value)'", column: mode.column, at: location)
        }
        return .succeeded
    }

    private func setTiming(_ arguments: [Located<String>], name: Located<String>, at location: Location) -> Outcome {
        switch arguments.first?.value.lowercased() {
        case "on": showTiming = true
        case "off": showTiming = false
        default:
            return fail("expected :timing on or :timing off", column: arguments.first?.column ?? name.column, at: location)
        }
        return .succeeded
    }

    private func setDiff(_ arguments: [Located<String>], name: Located<String>, at location: Location) -> Outcome {
        guard let argument = arguments.first, let mode = DiffMode(rawValue: argument.value.lowercased()), arguments.count == 1 else {
            return fail("expected :diff on, :diff off or :diff summary", column: arguments.first?.column ?? name.column, at: location)
        }
        options.diff = mode
        renderer.diffMode = mode
        return .succeeded
    }

    private func duration(_ argument: Located<String>, at location: Location) -> Duration? {
        if let duration = ShellDuration.parse(argument.value) { return duration }
        _ = fail("expected \(ShellDuration.expectation), got '\(argument.value)'", column: argument.column, at: location)
        return nil
    }

    private func sleep(_ arguments: [Located<String>], name: Located<String>, at location: Location) async -> Outcome {
        guard let argument = arguments.first else {
            return fail(":sleep needs \(ShellDuration.expectation)", column: name.column, at: location)
        }
        guard let duration = duration(argument, at: location) else { return .failed }
        renderer.sink.flush()
        let slept = Pending<Bool>()
        let alarm = AlarmClock.shared.arm(at: .now + duration) { slept.finish(true) }
        let finished = await interrupter.whileWaiting(onInterrupt: { slept.finish(nil) }) { await slept.value() }
        guard finished != nil else {
            AlarmClock.shared.disarm(alarm)
            printRecords(takeRecords())
            return fail("interrupted", column: name.column, at: location, outcome: .interrupted)
        }
        guard await interruptible({ [cluster, options] in await cluster.settled(timeout: options.timeout) }) != nil else {
            printRecords(takeRecords())
            return fail("interrupted", column: name.column, at: location, outcome: .interrupted)
        }
        printRecords(takeRecords())
        return .succeeded
    }

    private func wait(_ arguments: [Located<String>], name: Located<String>, at location: Location) async -> Outcome {
        guard let type = arguments.first else {
            return fail(":wait needs an event type (and optionally a timeout), like :wait ReceivedMessage 5s", column: name.column, at: location)
        }
        if let message = unknownEvent(type.value) { return fail(message, column: type.column, at: location) }
        var timeout = options.timeout
        if let argument = arguments.dropFirst().first {
            guard let given = duration(argument, at: location) else { return .failed }
            timeout = given
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var records = takeRecords()
        while true {
            printRecords(records)
            let arrived = records.contains { record in
                if case .event(_, let event) = record { return Names.namesType(type.value, ValueText.typeName(event)) }
                return false
            }
            if arrived {
                _ = await cluster.settled(timeout: options.timeout)
                printRecords(takeRecords())
                return .succeeded
            }
            if clock.now >= deadline {
                return fail("timed out after \(ShellDuration.describe(timeout)) waiting for \(type.value)", column: type.column, at: location)
            }
            if interrupter.isTriggered {
                return fail("interrupted while waiting for \(type.value)", column: type.column, at: location, outcome: .interrupted)
            }
            renderer.sink.flush()
            // Woken by the cluster's records, the deadline or Ctrl-C: no polling.
            records = await nextRecords(until: deadline)
        }
    }

    /// `:save FILE [--all]`: a script that replays this session.
    private func save(_ arguments: [Located<String>], name: Located<String>, at location: Location) async -> Outcome {
        let all = arguments.contains { $0.value == "--all" }
        let files = arguments.filter { $0.value != "--all" }
        guard files.count == 1, let file = files.first else {
            return fail(
                ":save needs one file name (and --all to keep the commands that failed too)", column: files.dropFirst().first?.column ?? name.column,
                at: location)
        }
        do {
            try await host.write(record.saved(cluster: cluster.name, all: all), to: file.value)
        } catch {
            return fail(error.message, column: file.column, at: location)
        }
        let count = record.count(all: all)
        if !options.quiet {
            let dropped = record.dropped > 0 ? " (the first \(record.dropped) were dropped: --history-limit \(options.historyLimit))" : ""
            renderer.log("saved \(count) command\(count == 1 ? "" : "s") to \(file.value)" + dropped)
        }
        return .succeeded
    }

    /// The event types the shell knows: those the catalog declares and those seen.
    var knownEvents: [String] {
        var names = cluster.catalog.targets.flatMap(\.events)
        for seen in seenEvents.all where !names.contains(seen) { names.append(seen) }
        return names
    }

    /// Why `name` names no event, when the catalog declares the events its
    /// targets emit (without that, an event not seen yet may still come).
    func unknownEvent(_ name: String) -> String? {
        guard cluster.catalog.targets.contains(where: { !$0.events.isEmpty }) else { return nil }
        let known = knownEvents
        guard !known.contains(where: { Names.namesType(name, $0) }) else { return nil }
        let short = known.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        return "no target emits an event named '\(name.clipped)'" + Names.didYouMean(name, among: short) + " Events: \(short.joined(separator: ", "))"
    }

    private func source(_ arguments: [Located<String>], name: Located<String>, at location: Location) async -> Outcome {
        guard let file = arguments.first else {
            return fail(":source needs a file name", column: name.column, at: location)
        }
        guard sourceDepth < 8 else {
            return fail(":source nests deeper than 8 scripts (does a script source itself?)", column: file.column, at: location)
        }
        // A relative path is relative to the script that sources it.
        var path = file.value
        if !path.hasPrefix("/"), let script = location.script, script.contains("/") {
            path = (script as NSString).deletingLastPathComponent + "/" + path
        }
        let lines: any LineSource
        do {
            lines = try await host.openScript(path)
        } catch {
            return fail(error.message, column: file.column, at: location)
        }
        sourceDepth += 1
        // At a prompt, the sourced commands are shown before their output, or it could not be read.
        let echoed = options.echo
        if isInteractive { options.echo = true }
        defer {
            sourceDepth -= 1
            options.echo = echoed
        }
        let result = await ScriptRunner(session: self).run(standardInput: lines, name: path)
        switch result {
        case .succeeded: return .succeeded
        case .quit: return .quit
        case .failed: return .failed
        case .interrupted: return .interrupted
        }
    }
}
