import Foundation
import GRPCCore
import KarcAttachProtocol
import KarcEndpoint
import TestSupport
import Testing
import Trellis

/// `ClusterEndpoint` as an app runs it, and shells at the protocol's level.
@Suite(.timeLimit(.minutes(1))) struct EndpointTests {
    /// The numbers of the `Beaten` events printed, in the order printed.
    func beats(in text: String) -> [Int] {
        text.components(separatedBy: "Beaten(n: ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test func eightShellsEachSeeEveryEventInOrder() async throws {
        let endpoint = try await RunningEndpoint()
        let shells = try (0..<8).map { _ in try TestShell(socket: endpoint.socket, token: endpoint.token) }
        for shell in shells { #expect(await shell.prompted()) }
        #expect(endpoint.endpoint.attachedShells == 8)
        for n in 1...200 {
            _ = try await endpoint.cluster.send(action: Beat(n: n), to: "beat")
        }
        for (index, shell) in shells.enumerated() {
            #expect(await shell.until { beats(in: $0.printed).last == 200 }, "shell \(index)")
            #expect(beats(in: shell.printed) == Array(1...200), "shell \(index)")
        }
        shells.forEach { $0.close() }
        try await endpoint.stop()
    }

    @Test func aShellOfAnotherProtocolVersionIsRefusedNamingBoth() async throws {
        let endpoint = try await RunningEndpoint()
        var hello = TestShell.prompt
        hello.protocolVersion = 99
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token, hello: hello)
        #expect(await shell.until { $0.end != nil })
        guard case .failure(let error)? = shell.end else {
            Issue.record("not refused")
            return
        }
        #expect(error.code == .failedPrecondition)
        #expect(
            error.message
                == "this karc speaks attach protocol 99, the app beat speaks \(AttachProtocol.version): attach with the karc of the app's karc version"
        )
        try await endpoint.stop()
    }

    @Test func aWrongTokenIsUnauthenticated() async throws {
        let endpoint = try await RunningEndpoint()
        let shell = try TestShell(socket: endpoint.socket, token: "nope")
        #expect(await shell.until { $0.end != nil })
        guard case .failure(let error)? = shell.end else {
            Issue.record("not refused")
            return
        }
        #expect(error.code == .unauthenticated)
        #expect(shell.messages.isEmpty)
        try await endpoint.stop()
    }

    @Test func moreShellsThanTheLimitAreRefused() async throws {
        let endpoint = try await RunningEndpoint { $0.maxShells = 2 }
        let first = try TestShell(socket: endpoint.socket, token: endpoint.token)
        let second = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await first.prompted())
        #expect(await second.prompted())
        let third = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await third.until { $0.end != nil })
        guard case .failure(let error)? = third.end else {
            Issue.record("not refused")
            return
        }
        #expect(error.code == .resourceExhausted)
        #expect(error.message == "2 shells are attached to beat already (its limit); detach one and try again")
        // One leaves: there is room again.
        first.close()
        await endpoint.endpoint.untilAttachedShells { $0 == 1 }
        let fourth = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await fourth.prompted())
        try await endpoint.stop()
    }

    @Test func aStalledShellNeitherBlocksTheAppNorHoldsItsRecordsInMemory() async throws {
        let endpoint = try await RunningEndpoint {
            $0.recordBuffer = 50
            $0.outputBuffer = 4096
        }
        let stalled = try TestShell(socket: endpoint.socket, token: endpoint.token, reading: false)
        #expect(await stalled.prompted())
        // The app's sends all complete while the shell reads nothing.
        for n in 1...3000 {
            _ = try await endpoint.cluster.send(action: Beat(n: n), to: "beat")
        }
        let count = await endpoint.cluster.target(named: "beat")?.state?() as? Beats
        #expect(count == Beats(count: 3000))
        // Another shell is served meanwhile.
        let other = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await other.prompted())
        other.type(":state beat")
        #expect(await other.until { $0.printed.contains("Beats(count: 3000)") })
        stalled.close()
        other.close()
        try await endpoint.stop()
    }

    /// A shell that stops reading once prompted and types 400 `:help` and a
    /// `beat.beat n=400` ahead, once its session waits for room (its
    /// `outputBuffer` is 4 KiB).
    private func typingAheadUntilTheSessionWaitsForRoom(
        configure: (inout ClusterEndpoint.Configuration) -> Void = { _ in }
    ) async throws -> (RunningEndpoint, TestShell) {
        let endpoint = try await RunningEndpoint {
            $0.outputBuffer = 4_096
            configure(&$0)
        }
        // A small receive window: the transport takes in 64 KiB of what the shell does not read.
        let stalled = try TestShell(socket: endpoint.socket, token: endpoint.token, reading: false, window: 1 << 16)
        #expect(await stalled.prompted())
        stalled.send(.with { $0.lines = .with { $0.lines = Self.typedAhead } })
        await endpoint.endpoint.untilRoomWaits { $0 >= 1 }
        return (endpoint, stalled)
    }

    /// A shell that types many lines ahead and stops reading: its session
    /// runs a line only when its output has room, so the app holds that room
    /// and one command's output for it, not every line's (400 `:help`s print
    /// 1.1 MB); once the shell reads again, the other lines run, in order.
    @Test func linesTypedAheadAtAStalledPromptWaitForRoomSoTheAppHoldsLittleForTheShell() async throws {
        let (endpoint, stalled) = try await typingAheadUntilTheSessionWaitsForRoom()
        let oneHelp = 4_096  // `:help` prints 2.7 KB
        #expect(endpoint.endpoint.heldOutputPeak <= 4_096 + oneHelp, "the app held \(endpoint.endpoint.heldOutputPeak) bytes")
        // The last line waits its turn.
        #expect(await endpoint.cluster.target(named: "beat")?.state?() as? Beats == Beats(count: 0))
        stalled.resume()
        #expect(await stalled.until { $0.printed.contains("Beaten(n: 400)") })
        #expect(stalled.printed.components(separatedBy: "Targets of beat").count - 1 == 400, "\(stalled.printed.utf8.count) bytes printed")
        stalled.close()
        try await endpoint.stop()
    }

    static let typedAhead = Array(repeating: ":help", count: 400) + ["beat.beat n=400"]

    /// Ctrl-C while lines typed ahead wait for room: the line waiting and
    /// those after it do not run, the shell is told how many, and their
    /// cost in the shell's line credit comes back, so it types on (its
    /// credit here is the cost of those lines, no more).
    @Test func aCtrlCWhileLinesTypedAheadWaitForRoomDropsThemAndGivesTheirCreditBack() async throws {
        let (endpoint, stalled) = try await typingAheadUntilTheSessionWaitsForRoom { $0.lineCredit = LineCredit.cost(of: Self.typedAhead) }
        stalled.send(.with { $0.interrupt = .init() })
        stalled.resume()
        #expect(await stalled.until { $0.printed.contains("lines did not run") })
        let ran = stalled.printed.components(separatedBy: "Targets of beat").count - 1
        #expect(stalled.printed.contains("interrupted: \(Self.typedAhead.count - ran) lines did not run"), "\(ran) ran")
        #expect(await endpoint.cluster.target(named: "beat")?.state?() as? Beats == Beats(count: 0))
        stalled.send(.with { $0.lines = .with { $0.lines = Array(repeating: ":help", count: 399) + ["beat.beat n=7"] } })
        #expect(await stalled.until { $0.printed.contains("Beaten(n: 7)") || $0.end != nil })
        #expect(stalled.end == nil, "the shell was refused: \(String(describing: stalled.end))")
        stalled.close()
        try await endpoint.stop()
    }

    /// A shell that typed lines ahead, stalled, and left: the lines its
    /// session had not run are dropped with it, not run for nobody.
    @Test func linesTypedAheadAreNotRunAfterTheShellLeaves() async throws {
        let (endpoint, stalled) = try await typingAheadUntilTheSessionWaitsForRoom()
        stalled.close()
        await endpoint.endpoint.untilAttachedShells { $0 == 0 }
        #expect(await endpoint.cluster.target(named: "beat")?.state?() as? Beats == Beats(count: 0))
        try await endpoint.stop()
    }

    @Test func aStalledShellsSessionTakesTheRecordsAsTheyComeAndShowsWhatTheyAddUpToWhenItReadsAgain() async throws {
        let endpoint = try await RunningEndpoint {
            $0.recordBuffer = 5_000
            $0.outputBuffer = 1024
        }
        let stalled = try TestShell(socket: endpoint.socket, token: endpoint.token, reading: false, window: 1 << 16)
        #expect(await stalled.prompted())
        // Three times its record buffer, and its output's room many times over (each send prints a line).
        for n in 1...15_000 {
            _ = try await endpoint.cluster.send(action: Beat(n: n), to: "beat")
            // The session keeps up with the sends, as it does on an idle machine: on a loaded one the
            // cluster could get 5,000 ahead and drop records for it anywhere, not only its oldest.
            if n.isMultiple(of: 1_000) { await endpoint.cluster.hub.untilNothingHeld() }
        }
        // Its output had no room long before the last send, and its session took the records
        // all the same: the cluster holds none of them for it.
        await endpoint.cluster.hub.untilNothingHeld()
        stalled.resume()
        #expect(await stalled.until { $0.printed.contains("Beaten(n: 15000)") })
        let printed = stalled.printed
        let seen = beats(in: printed)
        // The session kept the newest 5,000 events (its record buffer), and said how many it dropped:
        // none is dropped unsaid. How many the connection held before the session had to keep them
        // itself depends on the transport's buffers, so where the cut falls is not asserted, nor
        // that there is one: on a loaded machine all 15,000 have fit, and then none is told lost.
        // (`aShellThatFallsBehindIsToldWhatItLost` asserts the notice of a loss.)
        let lost = printed.split(separator: "\n").compactMap { line -> Int? in
            guard let notice = line.range(of: " records lost: the shell fell behind the cluster") else { return nil }
            return Int(String(line[..<notice.lowerBound].reversed().prefix { $0.isNumber }.reversed()))
        }
        #expect(seen.count + lost.reduce(0, +) == 15_000, "\(seen.count) events seen, lost: \(lost)")
        let firstDisorder = zip(seen.indices, seen.indices.dropFirst()).first { seen[$0.0] > seen[$0.1] }.map { $0.0 }
        #expect(
            seen == seen.sorted(),
            "what it does see comes in order: \(firstDisorder.map { Array(seen[max(0, $0 - 5)..<min(seen.count, $0 + 6)]) } ?? []) at \(firstDisorder ?? -1) of \(seen.count)"
        )
        #expect(seen.suffix(5_000) == Array(10_001...15_000))
        stalled.close()
        try await endpoint.stop()
    }

    @Test func aShellThatFallsBehindIsToldWhatItLost() async throws {
        let endpoint = try await RunningEndpoint {
            $0.recordBuffer = 20
            $0.outputBuffer = 1024
        }
        let slow = try TestShell(socket: endpoint.socket, token: endpoint.token, reading: false)
        #expect(await slow.prompted())
        for n in 1...2000 {
            _ = try await endpoint.cluster.send(action: Beat(n: n), to: "beat")
        }
        slow.resume()
        #expect(await slow.until { $0.printed.contains("Beaten(n: 2000)") }, "\(String(describing: slow.end))")
        let printed = slow.printed
        #expect(printed.contains(" records lost: the shell fell behind the cluster\n"), "\(printed.suffix(400))")
        let seen = beats(in: printed)
        let firstDisorder = zip(seen.indices, seen.indices.dropFirst()).first { seen[$0.0] > seen[$0.1] }.map { $0.0 }
        #expect(
            seen == seen.sorted(),
            "what it does see comes in order: \(firstDisorder.map { Array(seen[max(0, $0 - 5)..<min(seen.count, $0 + 6)]) } ?? []) at \(firstDisorder ?? -1) of \(seen.count)"
        )
        #expect(seen.count < 2000)
        slow.close()
        try await endpoint.stop()
    }

    @Test func aShellThatVanishesMidSendLeavesTheSendToComplete() async throws {
        let endpoint = try await RunningEndpoint()
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await shell.prompted())
        shell.type("slow.hold")
        // Polls: work in flight is an activity gauge's count, whose only wait is for idle.
        #expect(await eventually { endpoint.cluster.workInFlight > 0 })
        shell.close()
        await endpoint.latch.open()
        // Polls: a store's state read through the cluster has no change hook (the observation is the session's).
        #expect(
            await eventually {
                (await endpoint.cluster.target(named: "slow")?.state?() as? Slow)?.done == 1
            })
        await endpoint.endpoint.untilAttachedShells { $0 == 0 }
        try await endpoint.stop()
    }

    @Test(arguments: Garbage.allCases)
    func garbageOnTheSocketIsClosedAndTheEndpointGoesOn(_ garbage: Garbage) async throws {
        let endpoint = try await RunningEndpoint()
        let connection = try RawConnection(path: endpoint.socket)
        connection.write(garbage.bytes)
        if garbage == .truncatedFrame { connection.shutDownWriting() }
        #expect(await connection.readsToEnd(within: .seconds(20)), "the endpoint closes the connection")
        connection.close()
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await shell.prompted())
        shell.type(":state beat")
        #expect(await shell.until { $0.printed.contains("Beats(count: 0)") })
        try await endpoint.stop()
    }

    @Test func stoppingRemovesTheSocketAndTheTokenAndEndsTheSessions() async throws {
        let endpoint = try await RunningEndpoint()
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        #expect(await shell.prompted())
        #expect(FileManager.default.fileExists(atPath: endpoint.socket))
        try await endpoint.stop()
        #expect(await shell.until { $0.end != nil })
        #expect(!FileManager.default.fileExists(atPath: endpoint.socket))
        #expect(!FileManager.default.fileExists(atPath: endpoint.listening.tokenFile))
    }

    @Test func aLiveEndpointIsNotReplacedButAStaleSocketIs() async throws {
        let endpoint = try await RunningEndpoint()
        let cluster = try await beatingCluster()
        let second = ClusterEndpoint(cluster, name: "beat", configuration: .init(address: endpoint.socket))
        await #expect {
            try await second.run()
        } throws: { error in
            "\(error)"
                == "an endpoint listens on unix:\(endpoint.socket) already (another app named beat?): stop it, or give this one another name (karc serve --name NAME; in an app, ClusterEndpoint's name:) or address (--listen, Configuration's address)"
        }
        try await endpoint.stop()
        // A socket file nobody listens on (an app that was killed) is taken over.
        let stale = endpoint.scratch.file("stale.sock")
        UnixSocketFile.make(at: stale)
        let (bound, announce) = AsyncStream.makeStream(of: ClusterEndpoint.Listening.self)
        let third = ClusterEndpoint(cluster, name: "beat", configuration: .init(address: stale))
        let task = Task { try await third.run { announce.yield($0) } }
        var iterator = bound.makeAsyncIterator()
        #expect(await iterator.next()?.address == "unix:\(stale)")
        task.cancel()
        try? await task.value
        await cluster.shutDown()
    }

    @Test func tcpBeyondLoopbackNeedsTLS() async throws {
        let cluster = try await beatingCluster()
        let endpoint = ClusterEndpoint(cluster, name: "beat", configuration: .init(address: "0.0.0.0:0"))
        await #expect {
            try await endpoint.run()
        } throws: { error in
            "\(error)".hasPrefix("refusing to listen on 0.0.0.0:0 without TLS: anyone who reaches that interface could try the cluster.")
        }
        await cluster.shutDown()
    }
}

/// Tab on a state path through the connection: the app answers each request by its id, from the
/// state as it is, and a request it cannot answer (an unknown target, a long or broken path) gets
/// an empty answer, never a crash or silence.
@Suite(.timeLimit(.minutes(1))) struct CompletionRequestTests {
    func answer(_ shell: TestShell, id: UInt64) async -> [String]? {
        _ = await shell.until { $0.messages.contains { if case .completionReply(let reply) = $0.kind { reply.id == id } else { false } } }
        for message in shell.messages {
            if case .completionReply(let reply) = message.kind, reply.id == id { return reply.candidates }
        }
        return nil
    }

    func ask(_ shell: TestShell, id: UInt64, target: String, path: String) {
        shell.send(
            .with {
                $0.completionRequest = .with {
                    $0.id = id
                    $0.target = target
                    $0.path = path
                }
            })
    }

    @Test func eachRequestIsAnsweredByItsIdFromTheStateAsItIs() async throws {
        let endpoint = try await RunningEndpoint()
        let shell = try TestShell(socket: endpoint.socket, token: endpoint.token)
        _ = await shell.until { $0.messages.contains { if case .prompt = $0.kind { true } else { false } } }
        ask(shell, id: 7, target: "beat", path: "c")
        #expect(await answer(shell, id: 7) == ["count"])
        ask(shell, id: 8, target: "nobody", path: "c")
        #expect(await answer(shell, id: 8) == [])
        ask(shell, id: 9, target: "beat", path: String(repeating: "[\"", count: 5_000))
        #expect(await answer(shell, id: 9) == [])
        shell.close()
        try await endpoint.stop()
    }
}
