import KarcRendering

extension SequenceDiagram {
    /// The diagram drawn in `width` columns: a row of names, then for each
    /// message a row with its text and a row with its arrow between the
    /// lifelines (a mark `●` on one lifeline for an event, a change or a
    /// redirect). Text too long for its room is said shorter
    /// (``Message/shorter``), else cut with `…`; a mark's text stops before
    /// the next lifeline, which stays whole, and so does an arrow's label
    /// when a way to say it fits before the first lifeline it passes.
    package func lines(width: Int) -> [String] {
        guard !participants.isEmpty else { return [] }
        let count = participants.count
        // Lifelines evenly spaced, leaving room on the right for a mark's text: 28 columns
        // apart, or as far as a text between two neighbours needs when the width has room.
        let start = 6
        let reserve = 30
        let widest = (count == 1 ? 24 : (width - start - reserve) / (count - 1))
        let needed = messages.reduce(28) { needed, message in
            let spansOne = abs(message.from - message.to) == 1 || (message.from == message.to && message.from < count - 1)
            // Its room between two neighbours is the gap less three: a column each side and the lifeline.
            return spansOne ? max(needed, DisplayWidth.of(Self.shown(message.text, message)) + 3) : needed
        }
        // A window too narrow for lifelines 12 apart (40 columns, four targets) gets them closer,
        // names and texts cut to fit, rather than rows that wrap.
        let narrow = count > 1 && start + 12 * (count - 1) + 12 > width
        let gap = count == 1 ? 24 : narrow ? max(5, (width - start - 10) / (count - 1)) : max(12, min(widest, needed))
        let x = (0..<count).map { start + $0 * gap }
        // What is written beside the last lifeline may use the rest of the width.
        let total = max(width, (x.last ?? 0) + (narrow ? 2 : 12))
        func lifelines() -> [Character] {
            var row = [Character](repeating: " ", count: total)
            for column in x { row[column] = "│" }
            return row
        }
        func put(_ texts: [String], at start: Int, before end: Int, in row: inout [Character]) {
            let room = max(0, min(end, row.count) - start)
            guard room > 0, let last = texts.last else { return }
            let shown = texts.first { DisplayWidth.of($0) <= room } ?? DisplayWidth.cut(last, to: room)
            for (offset, character) in shown.enumerated() where start + offset < row.count { row[start + offset] = character }
        }
        var out: [String] = []
        var names = [Character](repeating: " ", count: total)
        for (i, name) in participants.enumerated() {
            let room = count == 1 ? total : gap - 1
            let shown = name.count > room ? String(name.prefix(max(1, room - 1))) + "…" : name
            put([shown], at: max(0, x[i] - shown.count / 2), before: min(total, x[i] - shown.count / 2 + room), in: &names)
        }
        out.append(String(names).trimmingTrailing())
        for message in messages {
            var label = lifelines()
            var arrow = lifelines()
            let texts = ([message.text] + message.shorter).map { Self.shown($0, message) }
            let (from, to) = (x[message.from], x[message.to])
            if message.from == message.to {
                arrow[from] = "●"
                let next = message.from + 1 < count ? x[message.from + 1] - 1 : total
                put(texts, at: from + 2, before: next, in: &arrow)
                out.append(String(arrow).trimmingTrailing())
                continue
            }
            let (left, right) = (min(from, to), max(from, to))
            let dashed = message.style == .reply || message.style == .failure
            for column in (left + 1)..<right { arrow[column] = dashed ? "╌" : "─" }
            if to > from {
                arrow[right - 1] = "▶"
                arrow[left] = "├"
            } else {
                arrow[left + 1] = "◀"
                arrow[right] = "┤"
            }
            // Within the first gap when a way to say it fits there, so the lifelines the arrow passes stay whole;
            // else over the arrow's whole length.
            let firstGap = x.first { $0 > left }.map { $0 - 1 } ?? right - 1
            let fitting = texts.filter { DisplayWidth.of($0) <= firstGap - (left + 2) }
            put(fitting.isEmpty ? texts : fitting, at: left + 2, before: fitting.isEmpty ? right - 1 : firstGap, in: &label)
            out.append(String(label).trimmingTrailing())
            out.append(String(arrow).trimmingTrailing())
        }
        return out
    }

    /// A message's text as drawn: a late one says so first.
    private static func shown(_ text: String, _ message: Message) -> String {
        message.late ? "(late) " + text : text
    }

    /// The diagram as Mermaid's `sequenceDiagram` (GitHub renders it in a
    /// ```` ```mermaid ```` block): a `participant` a lifeline, in order, then
    /// one line a message.
    package var mermaid: String {
        var lines = ["sequenceDiagram"]
        for (i, name) in participants.enumerated() { lines.append("    participant P\(i) as \(Self.escaped(name))") }
        for message in messages {
            let text = Self.escaped(message.late ? "(late) " + message.text : message.text)
            if message.from == message.to {
                lines.append("    Note over P\(message.from): \(text)")
                continue
            }
            let arrow =
                switch message.style {
                case .reply: "-->>"
                case .failure: "--x"
                default: "->>"
                }
            lines.append("    P\(message.from)\(arrow)P\(message.to): \(text)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text Mermaid reads as text: `#` and `;` (which it takes for entities and
    /// statement ends), and `<`, `>` and `&` (which it passes on as HTML:
    /// `<b>x</b>` bold, `Foo<Bar>` a tag that hides `Bar`) as its entity codes,
    /// so a generic type's name shows as written; and no line breaks. A `"`
    /// stays: outside a tag HTML reads it as text (and a value's quotes
    /// stay readable in the diagram's source).
    package static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "#": out += "#35;"
            case ";": out += "#59;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "&": out += "#amp;"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}

extension String {
    fileprivate func trimmingTrailing() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
