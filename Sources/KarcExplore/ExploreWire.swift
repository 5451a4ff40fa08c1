import KarcSession

/// What an explore worker answers its explorer, one line an answer, fields
/// apart by tabs (a tab, a newline or a backslash in a field escaped):
///
/// ```
/// started                          a fresh cluster is ready
/// cannot-start⇥MESSAGE
/// ran[⇥sSTRING|⇥iINT|⇥uUUID]…      the values the command's result held, oldest first
/// refused⇥MESSAGE[⇥TYPE]           TYPE: the error's, when the send threw
/// failed⇥KIND⇥DETAIL⇥MESSAGE       invariant|timeout|error|crash|exit
/// ```
///
/// Not JSON: encoding and decoding a JSON object a command was a tenth of
/// what a command cost.
enum ExploreWire {
    enum Answer: Equatable {
        case started
        case cannotStart(String)
        case step(ExploreStepResult)
    }

    static func started(error: String?) -> String {
        error.map { "cannot-start\t" + escape($0) } ?? "started"
    }

    static func line(_ result: ExploreStepResult) -> String {
        switch result {
        case .ran(let harvest):
            var line = "ran"
            for string in harvest.strings { line += "\ts" + escape(string) }
            for int in harvest.ints { line += "\ti\(int)" }
            for uuid in harvest.uuids { line += "\tu" + uuid }
            return line
        case .refused(let message, let type):
            return "refused\t" + escape(message) + (type.map { "\t" + escape($0) } ?? "")
        case .failed(let failure):
            let (kind, detail): (String, String)
            switch failure.kind {
            case .invariant(let name): (kind, detail) = ("invariant", name)
            case .timeout(let command): (kind, detail) = ("timeout", command)
            case .error(let type): (kind, detail) = ("error", type)
            case .crash(let signal): (kind, detail) = ("crash", "\(signal)")
            case .exit(let status): (kind, detail) = ("exit", "\(status)")
            }
            return ["failed", kind, escape(detail), escape(failure.message)].joined(separator: "\t")
        }
    }

    /// The answer `line` tells; nil when it is none.
    static func answer(_ line: String) -> Answer? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch fields.first {
        case "started": return .started
        case "cannot-start": return .cannotStart(fields.count > 1 ? unescape(fields[1]) : "")
        case "refused":
            return .step(.refused(fields.count > 1 ? unescape(fields[1]) : "", errorType: fields.count > 2 ? unescape(fields[2]) : nil))
        case "ran":
            var strings: [String] = []
            var ints: [Int] = []
            var uuids: [String] = []
            for field in fields.dropFirst() {
                guard let tag = field.first else { continue }
                let value = String(field.dropFirst())
                switch tag {
                case "s": strings.append(unescape(value))
                case "i": if let int = Int(value) { ints.append(int) }
                case "u": uuids.append(value)
                default: continue
                }
            }
            return .step(.ran(Harvest(strings: strings, ints: ints, uuids: uuids)))
        case "failed":
            guard fields.count == 4 else { return nil }
            let detail = unescape(fields[2])
            let kind: ExploreFailure.Kind
            switch fields[1] {
            case "invariant": kind = .invariant(detail)
            case "timeout": kind = .timeout(command: detail)
            case "error": kind = .error(type: detail)
            case "crash": kind = .crash(signal: Int32(detail) ?? 0)
            case "exit": kind = .exit(status: Int32(detail) ?? 0)
            default: return nil
            }
            return .step(.failed(ExploreFailure(kind, unescape(fields[3]))))
        default: return nil
        }
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x5C }) else { return text }
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaped = false
        for character in text.unicodeScalars {
            if escaped {
                switch character {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
