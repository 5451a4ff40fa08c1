/// What Tab completes and which hint follows a complete command, from the
/// catalog: targets, commands, field names (`field=`), and the cases of a
/// field whose type is a `CaseIterable` enum (and `true`/`false`).
struct Completer: Sendable {
    let catalog: Catalog

    struct Completion: Equatable {
        /// Text to insert at the cursor (the common part of every candidate beyond what is typed).
        var insert: String
        /// Every candidate, when there is more than one.
        var candidates: [String]
    }

    /// Completes `typed`, the line up to the cursor.
    func complete(_ typed: String) -> Completion {
        let words = typed.split(separator: " ", omittingEmptySubsequences: false)
        let current = String(words.last ?? "")
        if words.count == 1 {
            if current.hasPrefix(":") {
                return finish(current, among: ShellSession.metaCommands.map { ":" + $0.name }, suffix: " ")
            }
            guard let dot = current.firstIndex(of: ".") else {
                return finish(current, among: catalog.targets.map(\.name), suffix: ".")
            }
            guard let target = catalog.target(named: current[..<dot]) else { return Completion(insert: "", candidates: []) }
            let prefix = "\(current[..<dot])."
            return finish(current, among: target.commands.map { prefix + $0.name }, suffix: " ")
        }
        // Fields of `target.command`.
        let head = String(words[0])
        guard let dot = head.firstIndex(of: "."),
              let target = catalog.target(named: head[..<dot]),
              let command = target.command(named: head[head.index(after: dot)...]),
              let fields = command.fields
        else { return Completion(insert: "", candidates: []) }
        if let equals = current.firstIndex(of: "=") {
            guard let field = command.field(named: current[..<equals]) else { return Completion(insert: "", candidates: []) }
            let prefix = String(current[...equals])
            switch field.type {
            case .choice(let choice): return finish(current, among: choice.cases.map { prefix + $0 }, suffix: " ")
            case .bool: return finish(current, among: [prefix + "true", prefix + "false"], suffix: " ")
            default: return Completion(insert: "", candidates: [])
            }
        }
        let given = Set(words.dropFirst().dropLast().compactMap { word in
            word.firstIndex(of: "=").flatMap { command.field(named: word[..<$0])?.name }
        })
        let names = fields.filter { !given.contains($0.name) }.map { Names.kebab($0.name) }
        return finish(current, among: names, suffix: "=")
    }

    /// `value=Int (default 1)`: shown after a complete command name.
    func hint(for line: String) -> String? {
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
