import Testing

@testable import KarcOutput
@testable import KarcRendering

/// A front subscribed while a command runs (`:inspect` starts the
/// browser's in a command of its own) is told that command began, so its
/// row has a line before its output and its end.
@Suite(.timeLimit(.minutes(1)))
struct LateFrontTests {
    final class Lines: SessionFront {
        var lines: [String] = []

        func receive(_ event: OutputEvent, in context: OutputContext) {
            switch event {
            case .begin(let seq, let text): lines.append("#\(seq) \(text)")
            case .done(let seq, let outcome): lines.append("#\(seq) \(outcome)")
            default: lines.append("#\(context.seq.map(String.init) ?? "-") output")
            }
        }
    }

    @Test func aFrontSubscribedWhileACommandRunsIsToldItBegan() {
        let renderer = Renderer(mode: .json, style: Style(isEnabled: false), sink: OutputSink(capturing: ()))
        renderer.begin(1, text: ":inspect")
        let front = Lines()
        _ = renderer.subscribe(front)
        renderer.log("inspector: http://127.0.0.1:1/?token=0")
        renderer.end(1, outcome: "ok")
        renderer.begin(2, text: "counter.increment")
        renderer.end(2, outcome: "ok")
        #expect(front.lines == ["#1 :inspect", "#1 output", "#1 ok", "#2 counter.increment", "#2 ok"])
    }

    @Test func aFrontSubscribedBetweenCommandsIsToldNothingOld() {
        let renderer = Renderer(mode: .json, style: Style(isEnabled: false), sink: OutputSink(capturing: ()))
        renderer.begin(1, text: "counter.increment")
        renderer.end(1, outcome: "ok")
        let front = Lines()
        _ = renderer.subscribe(front)
        #expect(front.lines.isEmpty)
    }
}
