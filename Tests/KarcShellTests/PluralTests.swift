import Foundation
import KarcLanguage
import Testing

@testable import KarcSession

/// A count of one reads as one: `explored 1 run, 1 command`, not `1 runs`.
@Suite(.timeLimit(.minutes(1)))
struct PluralTests {
    @Test func anExplorationOfOneRunOfOneCommandSaysSoInTheSingular() async throws {
        let (report, output) = try await ExploreTests.explore(ExploreTests.everything, runs: 1, steps: 1)
        #expect(report.runs == 1 && report.commands == 1)
        #expect(output.hasPrefix("explore: seed 1, 1 run of up to 1 command\n"), "\(output)")
        #expect(output.contains("explored 1 run, 1 command (0 refused) in "), "\(output)")
        #expect(output.hasSuffix(": no failures\n"), "\(output)")
    }

    @Test func aCountTakesItsNounsPluralOnlyWhenItIsNotOne() {
        #expect(Names.counted(1, "run") == "1 run")
        #expect(Names.counted(0, "run") == "0 runs")
        #expect(Names.counted(2, "final state") == "2 final states")
        #expect(Names.counted(3, "entry", plural: "entries") == "3 entries")
    }
}
