import KarcMacroSupport
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@Memberwise` records of a state's or an event's type: the initializer a generated test writes its values with.
@Suite(.timeLimit(.minutes(1)))
struct MemberwiseMacroTests: MacroExpansionTest {
    let macros: [String: MacroSpec] = ["Memberwise": MacroSpec(type: MemberwiseMacro.self, conformances: ["MemberwiseInitializable"])]

    @Test func aStructThatDeclaresNoInitializerHasItsMemberwiseOne() {
        expand(
            """
            @Memberwise
            package struct Articles {
                var items: [Article] = []
                var nextID = 1
                let kind = "list"
                static var shared = 0
                var count: Int { items.count }
            }
            """,
            """
            package struct Articles {
                var items: [Article] = []
                var nextID = 1
                let kind = "list"
                static var shared = 0
                var count: Int { items.count }
            }

            extension Articles: KarcCommand.MemberwiseInitializable {
                package static var memberwiseInitializer: KarcCommand.MemberwiseInitializer {
                    KarcCommand.MemberwiseInitializer([KarcCommand.MemberwiseInitializer.Parameter(label: "items", field: "items"), KarcCommand.MemberwiseInitializer.Parameter(label: "nextID", field: "nextID")])
                }
            }
            """)
    }

    @Test func aDeclaredInitializerThatTakesEachFieldCountsAndAnUnlabelledArgumentIsWrittenBare() {
        expand(
            """
            @Memberwise
            public struct EmitValue<Value> {
                public var emitter: String
                public var value: Value
                public init(path: String) { self.init(path, value: nil!) }
                public init(_ emitter: String, value: Value) {
                    self.emitter = emitter
                    self.value = value
                }
            }
            """,
            """
            public struct EmitValue<Value> {
                public var emitter: String
                public var value: Value
                public init(path: String) { self.init(path, value: nil!) }
                public init(_ emitter: String, value: Value) {
                    self.emitter = emitter
                    self.value = value
                }
            }

            extension EmitValue: KarcCommand.MemberwiseInitializable {
                public static var memberwiseInitializer: KarcCommand.MemberwiseInitializer {
                    KarcCommand.MemberwiseInitializer([KarcCommand.MemberwiseInitializer.Parameter(label: nil, field: "emitter"), KarcCommand.MemberwiseInitializer.Parameter(label: "value", field: "value")])
                }
            }
            """)
    }

    /// Silence would leave the type written as JSON with nobody told why: the attribute says what to declare.
    @Test func aStructWithoutSuchAnInitializerIsAnErrorThatSaysWhatToDeclare() {
        expand(
            """
            @Memberwise
            struct State {
                var user: String?
                init() {}
            }
            """,
            """
            struct State {
                var user: String?
                init() {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Memberwise: State has no initializer that takes each stored field in order (user): declaring an initializer takes the memberwise one away, and a private field makes it private; declare init(user:)",
                    line: 1, column: 1)
            ])
        expand(
            """
            @Memberwise
            enum Mode {
                case on, off
            }
            """,
            """
            enum Mode {
                case on, off
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Memberwise applies to a struct (an enum's cases are written as Swift without it)", line: 1, column: 1)
            ])
    }
}
