import Karc
import Testing
import Trellis

// A Karc model whose pipes throw: `Spill` in a simplex pipe (the send
// returned long before), `Ask` in a duplex one (the error is the answer).
struct Spilled: Equatable, Initable, Sendable { var count = 0 }
protocol SpillCommand: Sendable {}
struct Spill: SpillCommand, Codable {}
struct Ask: SpillCommand, Codable {}
struct Leak: Error, CustomStringConvertible { var description: String { "the tank leaks" } }

@CheckedSendable
final class SpillDomain: Domain<DefaultId, Spilled, SpillCommand, Never> {}

@CheckedSendable
final class Tank: Model<SpillDomain, DefaultId, Spilled, SpillCommand, Never, Never> {
    override func reducer(state: Spilled, effect: Never) -> (Spilled, [Never]) {}

    @ScopesBuilder
    override func scopes(_ s: Spilled, _ i: Interactor) -> [Scope] {
        i.main
    }
}

extension Tank.Interactor {
    func main() -> Pipeline {
        Pipeline {
            Pipe(id: "spill", mode: .simplex(), source: commandSource) { (_: Spill, _) in throw Leak() }
            Pipe(id: "ask", mode: .duplex(), source: commandSource) { (_: Ask, _) -> Int in throw Leak() }
        }
    }
}

/// A mounted model's pipe that throws where no sender hears it is a record
/// its cluster's observers see (a shell prints it), whether or not the
/// model's logger is on; a duplex pipe's error is its sender's answer, told once.
@Suite(.timeLimit(.minutes(1)))
struct ModelPipeFailureTests {
    func tank() async throws -> Cluster {
        try await Bootstrap { Tank.service(.init(environ: Environ())).named("tank") }
    }

    @Test func aSimplexPipeThatThrowsIsAFailureRecordInTheTraceOfTheSendThatCausedIt() async throws {
        let cluster = try await tank()
        let observation = cluster.observe(tracing: true)
        try await cluster.send(action: Spill())
        var sendTrace: UInt64?
        var failure: (ModelPipeFailure, UInt64?)?
        for await record in observation {
            if case .sent = record.kind { sendTrace = record.link?.trace }
            if case .failed(0, let error) = record.kind, let pipe = error as? ModelPipeFailure {
                failure = (pipe, record.link?.trace)
                break
            }
        }
        let (pipe, trace) = try #require(failure)
        #expect(pipe.target == "tank" && pipe.pipe == "main.spill" && pipe.recovering)
        #expect(pipe.description == "tank's pipe main.spill threw the tank leaks; it goes on")
        #expect(trace != nil && trace == sendTrace)
        await cluster.shutDown()
    }

    @Test func aDuplexPipesErrorIsItsSendersAnswerAndNoRecordBesides() async throws {
        let cluster = try await tank()
        let observation = cluster.observe()
        await #expect(throws: Leak.self) { try await cluster.send(action: Ask()) }
        // A spill after it: once its failure is seen, everything the ask made was seen before it.
        try await cluster.send(action: Spill())
        var pipesFailed: [String] = []
        for await record in observation {
            guard case .failed(0, let error) = record.kind, let pipe = error as? ModelPipeFailure else { continue }
            pipesFailed.append(pipe.pipe)
            if pipe.pipe == "main.spill" { break }
        }
        #expect(pipesFailed == ["main.spill"])
        await cluster.shutDown()
    }
}
