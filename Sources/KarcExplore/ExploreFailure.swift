import KarcSession

/// A mistake in how `explore` was asked to run (a target that does not
/// exist, a seed that is no number): said before anything runs.
package struct ExploreError: Error, Sendable, Equatable {
    package let message: String
    package init(_ message: String) { self.message = message }
}

/// How a sequence of commands broke the cluster. Two failures are the same
/// when their ``kind`` is: shrinking keeps a shorter sequence only if it
/// fails the same way.
package struct ExploreFailure: Sendable, Equatable {
    package enum Kind: Sendable, Hashable {
        /// An invariant a target declares was false after a command (`'name' of target`).
        case invariant(String)
        /// A command, or the work it started, was still going after `--timeout`.
        case timeout(command: String)
        /// The process ended on a signal (a trap, `fatalError`, a failed precondition).
        case crash(signal: Int32)
        /// The process exited by itself in the middle of the sequence.
        case exit(status: Int32)
        /// A send failed with an error of a type `--fail-on` named.
        case error(type: String)
    }

    package var kind: Kind
    /// What happened, in a sentence.
    package var message: String
    /// What the process printed last, for a crash.
    package var output: String = ""

    package init(_ kind: Kind, _ message: String, output: String = "") {
        self.kind = kind
        self.message = message
        self.output = output
    }

    package static func == (lhs: ExploreFailure, rhs: ExploreFailure) -> Bool { lhs.kind == rhs.kind }

    /// A file name for the script that shows it (`invariant-stock-never-negative`).
    package var slug: String {
        let raw: String
        switch kind {
        case .invariant(let name): raw = "invariant " + name
        case .timeout(let command): raw = "timeout " + command
        case .crash(let signal): raw = "crash " + Signals.name(signal)
        case .exit(let status): raw = "exit \(status)"
        case .error(let type): raw = "error " + type
        }
        return String(Self.slug(raw).prefix(80))
    }

    /// `text` in lower case, letters and digits, the rest one `-` apart (`Deep dive!` is `deep-dive`).
    package static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.hasSuffix("-"), !slug.isEmpty {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    /// The kind in a few words, for the report and `--json`.
    package var kindName: String {
        switch kind {
        case .invariant: "invariant"
        case .timeout: "timeout"
        case .crash: "crash"
        case .exit: "exit"
        case .error: "error"
        }
    }
}

/// What one command of a sequence did.
package enum ExploreStepResult: Sendable, Equatable {
    /// It ran; its reply and the target's state held these values to reuse.
    case ran(Harvest)
    /// The cluster refused it as it should (a validation error, a middleware's
    /// refusal, a field the command cannot take): not a failure. When the
    /// send threw, `errorType` is the error's type (`--fail-on` checks its names against those thrown).
    case refused(String, errorType: String? = nil)
    /// It broke the cluster.
    case failed(ExploreFailure)
}

/// Signal names, as a shell prints them.
package enum Signals {
    package static func name(_ signal: Int32) -> String {
        switch signal {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 7: "SIGBUS"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 11: "SIGSEGV"
        case 13: "SIGPIPE"
        case 15: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
