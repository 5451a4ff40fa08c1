import KarcMacroSupport
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@CheckedSendable` writes, and what it refuses.
@Suite(.timeLimit(.minutes(1)))
struct CheckedSendableMacroTests: MacroExpansionTest {
    let macros: [String: MacroSpec] = ["CheckedSendable": MacroSpec(type: CheckedSendableMacro.self, conformances: ["Sendable"])]

    @Test func everyStoredLetIsCheckedAndSafeVarsAndComputedOnesPass() {
        expand(
            """
            @CheckedSendable
            final class Panel: Domain<String, PanelState, PanelCommand, Never> {
                let label: String
                let service = Service()
                @Observed private(set) var counts: [Int] = []
                @MainActor var title = ""
                @Karc.Observed var seen = 0
                nonisolated(unsafe) var legacy = 0
                static var shared = 0
                var doubled: Int { counts.count * 2 }
                var named: String { get { label } }
                #if DEBUG
                let debugName: String
                #endif
            }
            """,
            """
            final class Panel: Domain<String, PanelState, PanelCommand, Never> {
                let label: String
                let service = Service()
                @Observed private(set) var counts: [Int] = []
                @MainActor var title = ""
                @Karc.Observed var seen = 0
                nonisolated(unsafe) var legacy = 0
                static var shared = 0
                var doubled: Int { counts.count * 2 }
                var named: String { get { label } }
                #if DEBUG
                let debugName: String
                #endif
            }

            extension Panel: @unchecked Sendable {
                /// Compiled, never called: each stored `let` is of a `Sendable` type.
                private static func _checkSendableProperties() {
                    Karc._checkSendable(\\Panel.label)
                    Karc._checkSendable(\\Panel.service)
                    Karc._checkSendable(\\Panel.debugName)
                }
            }
            """)
    }

    @Test func aPlainStoredVarIsRefusedByName() {
        expand(
            """
            @CheckedSendable
            final class CounterDomain: Domain<DefaultId, Counter, Increment, Never> {
                private(set) var count = 0
                var log: [String] = [] { didSet {} }
            }
            """,
            """
            final class CounterDomain: Domain<DefaultId, Counter, Increment, Never> {
                private(set) var count = 0
                var log: [String] = [] { didSet {} }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: racing("count", in: "CounterDomain"), line: 3, column: 22),
                DiagnosticSpec(message: racing("log", in: "CounterDomain"), line: 4, column: 9),
            ])
    }

    @Test func aDestructuringLetIsRefused() {
        expand(
            """
            @CheckedSendable
            final class Pair: Domain<DefaultId, Counter, Increment, Never> {
                let (left, right) = (1, 2)
            }
            """,
            """
            final class Pair: Domain<DefaultId, Counter, Increment, Never> {
                let (left, right) = (1, 2)
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@CheckedSendable checks each stored 'let' by name: declare one property per 'let' instead of a destructuring pattern",
                    line: 3, column: 9)
            ])
    }

    @Test func aStructIsRefused() {
        expand(
            """
            @CheckedSendable
            struct Counter {}
            """,
            """
            struct Counter {}
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@CheckedSendable applies to a class (a Model or Domain subclass); a struct or enum is checked by the compiler itself",
                    line: 1, column: 1)
            ])
    }

    @Test func aGenericSubclassIsCheckedThroughItsBareName() {
        expand(
            """
            @CheckedSendable
            final class Box<Value: Sendable>: Domain<DefaultId, Holder<Value>, Never, Never> {
                let value: Value
            }
            """,
            """
            final class Box<Value: Sendable>: Domain<DefaultId, Holder<Value>, Never, Never> {
                let value: Value
            }

            extension Box: @unchecked Sendable {
                /// Compiled, never called: each stored `let` is of a `Sendable` type.
                private static func _checkSendableProperties() {
                    Karc._checkSendable(\\Box.value)
                }
            }
            """)
    }

    private func racing(_ name: String, in type: String) -> String {
        "stored 'var \(name)' makes '\(type)' not Sendable: any task may read it while the model writes it. Keep it in '@Observed' (a lock), "
            + "isolate it to a global actor ('@MainActor', and receive states through 'MainActorObserver'), or make it a 'let'"
    }
}
