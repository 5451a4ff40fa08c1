import KarcExplore
import KarcSession

/// What the report tells a user to type: the app's own arguments (taken
/// apart from explore's on the command line) and explore's flags that
/// change what is generated, so the line copied from the report replays
/// the script or repeats the exploration.
struct ExploreCommandLine: Equatable {
    /// The app's own arguments (`--bug interleave`), as typed.
    var app: [String] = []
    /// The flags of explore's that change what it generates or what counts
    /// as a failure (`--targets`, `--skip`, `--fail-on`, `--timeout`,
    /// `--advance`, `--keep-going`), as typed; `--seed`, `--runs` and
    /// `--steps` are written with the values used.
    var generating: [String] = []

    /// Explore's flags that the repeat line carries as typed.
    static let repeated: Set = ["--targets", "--skip", "--fail-on", "--timeout", "--advance", "--keep-going"]

    /// `arguments` (those after `explore`) taken apart.
    init(_ arguments: [String]) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if word == "--" {
                app += arguments[(index - 1)...]
                break
            }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            let takesValue = Self.options.contains(name)
            guard takesValue || Self.flags.contains(name) else {
                app.append(word)
                continue
            }
            var words = [word]
            if takesValue, !word.contains("="), index < arguments.endIndex {
                words.append(arguments[index])
                index += 1
            }
            if Self.repeated.contains(name) { generating += words }
        }
    }

    /// `NAME APP-ARGUMENTS`: what a script is replayed with.
    func replay(name: String) -> String {
        ShellWords.join([name] + app)
    }

    /// The command that repeats an exploration of `seed`, `runs` and `steps`.
    func repeatCommand(name: String, seed: UInt64, runs: Int, steps: Int) -> String {
        ShellWords.join([name, "explore"] + app + ["--seed", "\(seed)", "--runs", "\(runs)", "--steps", "\(steps)"] + generating)
    }

    /// Explore's options that take a value, and its flags, as typed
    /// (`--fail-on`): read off ``ExploreArguments``' declarations, so a
    /// flag added there is never taken for one of the app's.
    static let (options, flags): (Set<String>, Set<String>) = {
        var options: Set<String> = []
        var flags: Set<String> = []
        for child in Mirror(reflecting: ExploreArguments()).children {
            guard let label = child.label?.dropFirst() else { continue }
            let name = "--" + kebab(String(label))
            if String(describing: type(of: child.value)).hasPrefix("Flag<") { flags.insert(name) } else { options.insert(name) }
        }
        return (options, flags)
    }()

    /// `failOn` as ArgumentParser spells it: `fail-on`.
    private static func kebab(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "-" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}
