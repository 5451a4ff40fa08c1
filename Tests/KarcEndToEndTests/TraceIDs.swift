import Foundation

/// Trace and span ids in `--json` output, for comparing the output of two
/// processes: ids count in each process, so the same trees have other ids.
enum TraceIDs {
    /// `output` with each id (`"trace"`, `"span"`, `"parent"`) replaced by its
    /// rank of first appearance: two outputs with the same trees read the same.
    static func renumbered(_ output: String) -> String {
        // The ids are lowercase hexadecimal strings, as the shell writes them.
        guard let expression = try? NSRegularExpression(pattern: #""(trace|span|parent)":"([0-9a-f]+)""#) else { return output }
        var ranks: [String: Int] = [:]
        var result = ""
        var last = output.startIndex
        for match in expression.matches(in: output, range: NSRange(output.startIndex..., in: output)) {
            guard let whole = Range(match.range, in: output), let key = Range(match.range(at: 1), in: output),
                let id = Range(match.range(at: 2), in: output)
            else { continue }
            let rank = ranks[String(output[id])] ?? ranks.count + 1
            ranks[String(output[id])] = rank
            result += output[last..<whole.lowerBound] + "\"\(output[key])\":\"#\(rank)\""
            last = whole.upperBound
        }
        return result + output[last...]
    }

    /// ``renumbered(_:)``, with the times a trace prints (`"milliseconds":0.091`, `0.091 ms`) masked too.
    static func comparable(_ output: String) -> String {
        var text = renumbered(output)
        for pattern in [#""milliseconds":[0-9.e-]+"#, #"[0-9]+\.[0-9]+ ms"#, #""time":"[0-9T:.Z-]+""#] {
            text = text.replacingOccurrences(of: pattern, with: "<time>", options: .regularExpression)
        }
        return text
    }
}
