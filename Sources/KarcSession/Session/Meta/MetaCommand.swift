import KarcLanguage
import KarcOutput

/// A meta command (`:help`, `:state`, …): its name, what `:help` says, how
/// its arguments complete, whether a replay keeps it, and what it does.
///
/// Each is a type of its own in a file of its own, listed once in
/// ``MetaCommands/all``: the dispatcher, `:help`, Tab completion and `:save`
/// all read that table, so adding one is one entry there and its file.
protocol MetaCommand: SendableMetatype {
    /// What follows the `:`.
    static var name: String { get }
    /// Other names that run it (`:q` for `:quit`), not listed by `:help`.
    static var aliases: [String] { get }
    /// Its arguments, as `:help` lists them after the name (`[target [path]]`).
    static var arguments: String { get }
    /// What it does, in one line of `:help`.
    static var summary: String { get }
    /// More, for `:help :NAME`: what its arguments mean, with examples.
    static var details: [String] { get }
    /// Whether `:save` and `--record` keep a line that runs it; false for
    /// those whose replay would do something else (save, quit, write a file).
    static var isReplayed: Bool { get }
    /// Whether it takes what the cluster did since the last command itself
    /// (`:wait`, which may find its event there), rather than having it printed first.
    static var takesArrived: Bool { get }
    /// What the argument at `position` (0 is the first) completes to, with
    /// the text after a unique completion; `words` are the arguments typed so
    /// far, the last being typed. Nil when it completes to nothing.
    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions?
    /// Runs it in `session`.
    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome
}

extension MetaCommand {
    static var aliases: [String] { [] }
    static var isReplayed: Bool { true }
    static var takesArrived: Bool { false }
    static var details: [String] { [] }
    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? { nil }

    /// `:name arguments`, as `:help` lists it.
    static var head: String {
        ":" + name + (arguments.isEmpty ? "" : " " + arguments)
    }
}

/// What a meta command's argument completes to.
struct MetaCompletions {
    var candidates: [String]
    /// Added after a unique completion: a space, or nothing (a directory's `/`, a target's `.`).
    var suffix = " "
}

/// One run of a meta command: the name as typed, its arguments, and where the line came from.
struct MetaCall {
    let name: Located<String>
    let arguments: [Located<String>]
    let location: LineLocation

    /// The column to point at when an argument is missing: the first
    /// extra one, or else the name.
    var column: Int { arguments.first?.column ?? name.column }
}
