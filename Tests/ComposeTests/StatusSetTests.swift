import Compose
import Foundation
import Testing

@Suite("StatusSet operators", .timeLimit(.minutes(1)))
struct StatusSetTests {
    enum Status: String, AnyStatus {
        case loading, loadingProfile, saving
    }

    @Test func plusEqualsAddsEachStatusOnce() {
        var statuses = StatusSet<Status>()
        #expect(statuses.isEmpty)
        statuses += .loading
        statuses += .loadingProfile
        statuses += .loading
        #expect(Array(statuses) == [.loading, .loadingProfile])
    }

    @Test func minusEqualsRemovesAStatus() {
        var statuses: StatusSet<Status> = [.loading, .saving]
        statuses -= .loading
        statuses -= .loadingProfile  // absent: no change
        #expect(Array(statuses) == [.saving])
    }

    @Test func orEqualsReplacesEveryStatus() {
        var statuses: StatusSet<Status> = [.loading, .saving]
        statuses |= .loadingProfile
        #expect(Array(statuses) == [.loadingProfile])
    }

    @Test func tildeEqualsChecksMembership() {
        let statuses: StatusSet<Status> = [.loading]
        #expect(statuses ~= .loading)
        #expect(!(statuses ~= .saving))
        #expect(statuses !~= .saving)
        #expect(!(statuses !~= .loading))
    }

    @Test func equalityIgnoresOrder() {
        let one: StatusSet<Status> = [.loading, .saving]
        let other: StatusSet<Status> = [.saving, .loading]
        #expect(one == other)
        #expect(one != [.loading])
    }

    @Test func itEncodesAsAnArrayInInsertionOrder() throws {
        let statuses: StatusSet<Status> = [.saving, .loading]
        let data = try JSONEncoder().encode(statuses)
        #expect(String(decoding: data, as: UTF8.self) == #"["saving","loading"]"#)
        #expect(try JSONDecoder().decode(StatusSet<Status>.self, from: data) == statuses)
        #expect(statuses.description == "[saving, loading]")
    }
}
