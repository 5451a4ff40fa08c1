import KarcAsync
import Testing
import Trellis

enum APIBaseURLKey: EnvironmentKey {
    static var defaultValue: String { "https://api.example.com" }
}

extension EnvironmentValues {
    var apiBaseURL: String {
        get { self[APIBaseURLKey.self] }
        set { self[APIBaseURLKey.self] = newValue }
    }
}

struct Sources: Equatable, Sendable { var seen: [String] = [] }
struct Load: Action {}
struct Forward: Action {}

/// A service that reads the environment in its body and in its handler.
struct Catalog: Service {
    @Environment(\.apiBaseURL) var baseURL
    let built: Recorder<String>

    var body: some Service {
        built.append(baseURL)  // read while the tree is built
        return Store(model: Sources.self)
            .mutate(on: Load.self) { sources, _, _ in sources.seen.append(baseURL) }  // read when the action runs
            .mutate(on: Forward.self) { sources, _, send in
                sources.seen.append(baseURL)
                try await send(Audit())
            }
            .with(model: Sources())
    }
}

struct Audit: Action {}

/// `.environment(\.key, value)` is read back with `@Environment` in the services below it.
@Suite(.timeLimit(.minutes(1))) struct EnvironmentTests {
    @Test func servicesReadTheValueSetAboveThemAndTheDefaultElsewhere() async throws {
        let built = Recorder<String>()
        let audited = Recorder<String>()
        let cluster = try await Bootstrap {
            Catalog(built: built).named("staging")
                .environment(\.apiBaseURL, "https://staging.example.com")
            Group {
                Catalog(built: built).named("nested")
            }
            .environment(\.apiBaseURL, "https://outer.example.com")
            .environment(\.apiBaseURL, "https://ignored.example.com")  // the innermost value wins, as in SwiftUI
            Catalog(built: built).named("default")
            Store(model: Sources.self)
                .mutate(on: Audit.self) { _, _, _ in
                    @Environment(\.apiBaseURL) var seen
                    audited.append(seen)
                }
                .with(model: Sources())
                .named("audit")
        }
        #expect(built.all == ["https://staging.example.com", "https://outer.example.com", "https://api.example.com"])
        try await cluster.send(action: Load())
        for (target, expected) in [
            ("staging", "https://staging.example.com"), ("nested", "https://outer.example.com"), ("default", "https://api.example.com"),
        ] {
            #expect(await cluster.target(named: target)?.state?() as? Sources == Sources(seen: [expected]), "\(target)")
        }
        // A send from a handler that sees a value reaches a service that sets none: it sees the default.
        try await cluster.send(action: Forward(), to: "staging")
        #expect(audited.all == ["https://api.example.com"])
        await cluster.shutDown()
    }
}
