@testable import KarcShell
import Testing

@Suite("Shell parts: durations, colours, event filters, history path")
struct ShellPartsTests {
    @Test(arguments: [("250ms", 250), ("2s", 2_000), ("1.5s", 1_500), ("1m", 60_000), ("0s", 0)])
    func durationsParse(_ text: String, _ milliseconds: Int64) {
        #expect(ShellDuration.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "5", "soon", "-1s", "2h", "1e9s", "nans", "infs"])
    func badDurationsAreRefused(_ text: String) {
        #expect(ShellDuration.parse(text) == nil)
    }

    @Test func durationsAreWrittenBackShort() {
        #expect(ShellDuration.describe(.milliseconds(250)) == "250ms")
        #expect(ShellDuration.describe(.seconds(5)) == "5s")
        #expect(ShellDuration.describe(.seconds(120)) == "2m")
    }

    @Test func colourIsOnlyAddedWhenEnabled() {
        #expect(Style(isEnabled: false).error("error") == "error")
        #expect(Style(isEnabled: true).error("error") == "\u{1B}[31merror\u{1B}[0m")
    }

    @Test func eventFiltersMatchTypeNamesLoosely() {
        #expect(EventFilter.all.shows("Added"))
        #expect(!EventFilter.none.shows("Added"))
        #expect(EventFilter.only([Names.key("added")]).shows("Added"))
        #expect(!EventFilter.only([Names.key("added")]).shows("Cleared"))
        #expect(!EventFilter.mute([Names.key("received-message")]).shows("ReceivedMessage"))
    }

    @Test func theHistoryFileFollowsXDGUnlessTold() {
        #expect(Prompt.historyPath(option: nil, cluster: "demo", environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"]) == "/state/karc/demo.history")
        #expect(Prompt.historyPath(option: nil, cluster: "shop", environment: ["HOME": "/home/u"]) == "/home/u/.local/state/karc/shop.history")
        #expect(Prompt.historyPath(option: nil, cluster: "shop", environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/state/karc/shop.history")
        #expect(Prompt.historyPath(option: nil, cluster: "../x", environment: ["XDG_STATE_HOME": "/state"]) == "/state/karc/_.._x.history")
        #expect(Prompt.historyPath(option: "/tmp/h", cluster: "demo", environment: [:]) == "/tmp/h")
        #expect(Prompt.historyPath(option: "/dev/null", cluster: "demo", environment: [:]) == nil)
    }
}
