import Foundation
import KarcAsync
import KarcLanguage
import KarcRendering
import KarcSynchronization

/// What Tab completes and which hint follows a complete command, from the
/// catalog: targets, commands, field names (`field=`), and the cases of a
/// field whose type is a `CaseIterable` enum (and `true`/`false`).
package struct Completer: Sendable {
    let catalog: CatalogSummary
    /// The event names `:wait` and `:events` complete (declared and seen so far).
    var events: @Sendable () -> [String] = { [] }
    /// The names of the snapshots the session keeps (`:restore`, `:snapshot save`).
    var snapshots: @Sendable () -> [String] = { [] }
    /// The paths into a target's state now that start with what is typed
    /// (`:state articles items[0].t`): ``StatePath/completions(in:typed:limit:)``
    /// of its state, or nothing when it cannot be had in time.
    var statePaths: @Sendable (_ target: String, _ typed: String) -> [String] = { _, _ in [] }

    package init(
        catalog: CatalogSummary, events: @escaping @Sendable () -> [String] = { [] }, snapshots: @escaping @Sendable () -> [String] = { [] },
        statePaths: @escaping @Sendable (_ target: String, _ typed: String) -> [String] = { _, _ in [] }
    ) {
        self.catalog = catalog
        self.events = events
        self.snapshots = snapshots
        self.statePaths = statePaths
    }

    package init(
        catalog: Catalog, events: @escaping @Sendable () -> [String] = { [] }, snapshots: @escaping @Sendable () -> [String] = { [] },
        statePaths: @escaping @Sendable (_ target: String, _ typed: String) -> [String] = { _, _ in [] }
    ) {
        self.init(catalog: CatalogSummary(catalog), events: events, snapshots: snapshots, statePaths: statePaths)
    }

    /// The paths into `target`'s state now that go on from `typed`; nothing
    /// for a target the catalog does not name. At most 1,024 bytes of
    /// `typed` are looked at (an attached shell's request is untrusted).
    package static func statePaths(in cluster: any ShellCluster, target: String, typed: String) async -> [String] {
        guard cluster.catalog.target(named: target)?.name == target, let state = await cluster.state(of: target) else { return [] }
        return StatePath.completions(in: state, typed: String(decoding: typed.utf8.prefix(1_024), as: UTF8.self))
    }

    /// State paths of `cluster`'s targets, for Tab on the editor's thread:
    /// it asks the cluster and waits for the state at most `wait` (a busy
    /// actor store, say), completing nothing when it is late.
    package static func statePaths(of cluster: any ShellCluster, wait: Duration = .milliseconds(500))
        -> @Sendable (String, String) -> [String]
    {
        { target, typed in
            let found = KarcMutex<[String]?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                let paths = await statePaths(in: cluster, target: target, typed: typed)
                found.withLock { $0 = paths }
                done.signal()
            }
            _ = done.wait(timeout: .now() + .milliseconds(Int(ShellDuration.milliseconds(wait))))
            return found.withLock { $0 } ?? []
        }
    }

    package struct Completion: Equatable {
        /// Text to insert at the cursor (the common part of every candidate beyond what is typed).
        package var insert: String
        /// Every candidate, when there is more than one.
        package var candidates: [String]
    }

    /// Completes `typed`, the line up to the cursor.
    package func complete(_ typed: String) -> Completion {
        let words = typed.split(separator: " ", omittingEmptySubsequences: false)
        let current = String(words.last ?? "")
        if words.count == 1 {
            if current.hasPrefix(":") {
                return finish(current, among: MetaCommands.all.map { ":" + $0.name }, suffix: " ")
            }
            guard let dot = current.firstIndex(of: ".") else {
                return finish(current, among: catalog.targets.map(\.name), suffix: ".")
            }
            guard let target = catalog.target(named: current[..<dot]) else { return Completion(insert: "", candidates: []) }
            let prefix = "\(current[..<dot])."
            return finish(current, among: target.commands.map { prefix + $0.name }, suffix: " ")
        }
        let head = String(words[0])
        if head.hasPrefix(":") { return completeArgument(of: String(head.dropFirst()), words: words.dropFirst().map(String.init)) }
        // Fields of `target.command`.
        guard let dot = head.firstIndex(of: "."),
            let target = catalog.target(named: head[..<dot]),
            let command = target.command(named: head[head.index(after: dot)...]),
            let fields = command.fields
        else { return Completion(insert: "", candidates: []) }
        if let equals = current.firstIndex(of: "=") {
            guard let field = command.field(named: current[..<equals]) else { return Completion(insert: "", candidates: []) }
            let prefix = String(current[...equals])
            guard let values = field.values else { return Completion(insert: "", candidates: []) }
            return finish(current, among: values.map { prefix + $0 }, suffix: " ")
        }
        let given = Set(
            words.dropFirst().dropLast().compactMap { word in
                word.firstIndex(of: "=").flatMap { command.field(named: word[..<$0])?.name }
            })
        let names = fields.filter { !given.contains($0.name) }.map { Names.kebab($0.name) }
        return finish(current, among: names, suffix: "=")
    }

    /// The argument being typed (the last of `words`) of the meta command `name` (``MetaCommand/completions(at:of:in:)``).
    private func completeArgument(of name: String, words: [String]) -> Completion {
        guard let command = MetaCommands.named(name), let completions = command.completions(at: words.count - 1, of: words, in: self) else {
            return Completion(insert: "", candidates: [])
        }
        return finish(words.last ?? "", among: completions.candidates, suffix: completions.suffix)
    }

    /// The targets' names.
    var targetNames: [String] { catalog.targets.map(\.name) }

    /// A part of a state as `:watch` and `:blame` take it (`articles.items[0].likes`):
    /// the targets, then the paths into the typed target's state.
    func partPaths(_ typed: String) -> [String] {
        guard let cut = typed.firstIndex(where: { $0 == "." || $0 == "[" }), let target = catalog.target(named: typed[..<cut]) else {
            return targetNames
        }
        let rest = typed[cut...]
        let path = rest.first == "." ? String(rest.dropFirst()) : String(rest)
        let head = String(typed[..<cut])
        return statePaths(target.name, path).map { head + ($0.first == "[" ? "" : ".") + $0 }
    }

    /// The event names `:wait` and `:events` complete: declared and seen, without their module.
    var eventNames: [String] {
        var names: [String] = []
        for name in events() + catalog.targets.flatMap(\.events) {
            let short = name.split(separator: ".").last.map(String.init) ?? name
            if !names.contains(short) { names.append(short) }
        }
        return names
    }

    /// The files and directories (with their `/`) whose paths start with `typed`.
    static func paths(startingWith typed: String) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let directory = slash.map { String(typed[...$0]) } ?? ""
        let listed = directory.isEmpty ? "." : (directory.hasPrefix("~") ? NSString(string: directory).expandingTildeInPath : directory)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: listed) else { return [] }
        let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        return entries.filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { entry in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: listed + "/" + entry, isDirectory: &isDirectory)
            return directory + entry + (isDirectory.boolValue ? "/" : "")
        }
    }

    /// `value=Int (default 1)`: shown after a complete command name.
    package func hint(for line: String) -> String? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let head = words.first, words.count == 1 || line.hasSuffix(" "),
            let dot = head.firstIndex(of: "."),
            let target = catalog.target(named: head[..<dot]),
            let command = target.command(named: head[head.index(after: dot)...])
        else { return nil }
        return command.fieldsSynopsis.isEmpty ? nil : command.fieldsSynopsis
    }

    private func finish(_ typed: String, among names: [String], suffix: String) -> Completion {
        let matches = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        guard let first = matches.first else { return Completion(insert: "", candidates: []) }
        if matches.count == 1 {
            return Completion(insert: String(first.dropFirst(typed.count)) + suffix, candidates: [])
        }
        var common = first
        for match in matches.dropFirst() {
            while !match.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        return Completion(insert: String(common.dropFirst(typed.count)), candidates: matches)
    }
}
