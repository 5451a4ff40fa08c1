import KarcLanguage
import KarcOutput

extension ShellSession {
    /// Runs the meta command `name` names, or says which there are.
    func meta(_ name: Located<String>, _ arguments: [Located<String>], at location: Location) async -> Outcome {
        guard let command = MetaCommands.named(name.value) else {
            let names = MetaCommands.all.map { $0.name }
            let message =
                "unknown meta command ':\(name.value)'" + Names.didYouMean(name.value.lowercased(), among: names, prefix: ":")
                + " Meta commands: " + names.map { ":\($0)" }.joined(separator: ", ")
            return fail(message, column: name.column, at: location)
        }
        return await command.run(MetaCall(name: name, arguments: arguments, location: location), in: MetaContext(self))
    }

    /// Prints `message` as an error at `call`'s line, pointing at `column` (the call's, unless given).
    func fail(_ message: String, column: Int? = nil, in call: MetaCall, outcome: Outcome = .failed) -> Outcome {
        fail(message, column: column ?? call.column, at: call.location, outcome: outcome)
    }
}
