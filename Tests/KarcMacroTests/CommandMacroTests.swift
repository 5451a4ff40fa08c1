import KarcMacroSupport
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@Command` writes, read as the compiler would get it.
@Suite(.timeLimit(.minutes(1)))
struct CommandMacroTests: MacroExpansionTest {
    let macros: [String: MacroSpec] = ["Command": MacroSpec(type: CommandMacro.self, conformances: ["Decodable", "CommandDocumented"])]

    @Test func aStructFieldWithADefaultFallsBackToIt() {
        expand(
            """
            /// Adds to the counter.
            @Command
            public struct Increment {
                /// How much to add.
                var by = 1
                var note: String?
                let kind: String
                let fixed = 3
                static var shared = 0
                var computed: Int { by * 2 }
            }
            """,
            """
            /// Adds to the counter.
            public struct Increment {
                /// How much to add.
                var by = 1
                var note: String?
                let kind: String
                let fixed = 3
                static var shared = 0
                var computed: Int { by * 2 }
            }

            extension Increment: Decodable {
                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: _CommandKeys.self)
                    self.by = try container.decode(field: .by, default: 1)
                    self.note = try container.decodeIfPresent(field: .note)
                    self.kind = try container.decode(field: .kind)
                }

                private enum _CommandKeys: String, CodingKey {
                    case by
                    case note
                    case kind
                }
            }

            extension Increment: KarcCommand.CommandDocumented {
                public static var commandDocumentation: KarcCommand.CommandDocumentation {
                    KarcCommand.CommandDocumentation(summary: "Adds to the counter.", fields: ["by": .init(summary: "How much to add.", defaultValue: "1"), "note": .init(summary: nil, defaultValue: nil), "kind": .init(summary: nil, defaultValue: nil)], initializer: ["by", "note", "kind"])
                }
            }
            """)
    }

    @Test func aStructOfNoFieldsDecodesFromAnything() {
        expand(
            """
            @Command
            struct Reset {
                init() {}
            }
            """,
            """
            struct Reset {
                init() {}
            }

            extension Reset: Decodable {
                init(from decoder: any Decoder) throws {
                }
            }

            extension Reset: KarcCommand.CommandDocumented {
                static var commandDocumentation: KarcCommand.CommandDocumentation {
                    KarcCommand.CommandDocumentation(summary: nil, fields: [:], initializer: [])
                }
            }
            """)
    }

    @Test(arguments: [
        ("struct A { var title: String; init(title: String) { self.title = title } }", #"initializer: ["title"]"#),
        ("struct A { var title: String; init(_ title: String) { self.title = title } }", nil),
        ("struct A { var title: String; init?(title: String) { return nil } }", nil),
        ("struct A { var title: String; init(title: String) throws { self.title = title } }", nil),
        ("struct A { var title: String; private init(title: String) { self.title = title } }", nil),
        ("struct A { private var title: String }", nil),
        ("struct A { private(set) var title: String }", #"initializer: ["title"]"#),
        ("private struct A { var title: String }", nil),
    ])
    func theInitializerATestWritesACommandWithTakesEachFieldByName(source: String, initializer: String?) {
        let expanded = expansion(of: "@Command\n" + source)
        if let initializer {
            #expect(expanded.contains(initializer), "\(expanded)")
        } else {
            #expect(!expanded.contains("initializer:"), "\(expanded)")
        }
    }

    @Test func anEnumDecodesItsCasesAsSwiftEncodesThem() {
        expand(
            """
            @Command
            enum Cart {
                /// Adds an item.
                /// - Parameter quantity: how many.
                case add(item: String, quantity: Int = 1)
                case rename(String, to: String)
                case clear
            }
            """,
            """

            enum Cart {
                /// Adds an item.
                /// - Parameter quantity: how many.
                case add(item: String, quantity: Int = 1)
                case rename(String, to: String)
                case clear
            }

            extension Cart: Decodable {
                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: _CommandKeys.self)
                    guard container.allKeys.count == 1, let key = container.allKeys.first else {
                        throw DecodingError.typeMismatch(Self.self, DecodingError.Context(codingPath: container.codingPath, debugDescription: "Invalid number of keys found, expected one."))
                    }
                    switch key {
                    case .add:
                        let values = try container.nestedContainer(keyedBy: _CommandKeys_add.self, forKey: .add)
                        self = .add(item: try values.decode(field: .item), quantity: try values.decode(field: .quantity, default: 1))
                    case .rename:
                        let values = try container.nestedContainer(keyedBy: _CommandKeys_rename.self, forKey: .rename)
                        self = .rename(try values.decode(field: ._0), to: try values.decode(field: .to))
                    case .clear:
                        self = .clear
                    }
                }

                private enum _CommandKeys: String, CodingKey {
                    case add
                    case rename
                    case clear
                }

                private enum _CommandKeys_add: String, CodingKey {
                    case item
                    case quantity
                }

                private enum _CommandKeys_rename: String, CodingKey {
                    case _0
                    case to
                }
            }

            extension Cart: KarcCommand.CommandDocumented {
                static var commandDocumentation: KarcCommand.CommandDocumentation {
                    KarcCommand.CommandDocumentation(summary: nil, cases: ["add": KarcCommand.CommandDocumentation(summary: "Adds an item.", fields: ["item": .init(summary: nil, defaultValue: nil), "quantity": .init(summary: "how many.", defaultValue: "1")]), "rename": KarcCommand.CommandDocumentation(summary: nil, fields: ["_0": .init(summary: nil, defaultValue: nil), "to": .init(summary: nil, defaultValue: nil)]), "clear": KarcCommand.CommandDocumentation(summary: nil, fields: [:])])
                }
            }
            """)
    }

    @Test func aClassIsRefusedWithAMessage() {
        expand(
            """
            @Command
            class Handler {}
            """,
            """
            class Handler {}
            """, diagnostics: [DiagnosticSpec(message: "@Command applies to a struct or an enum (the type of a command)", line: 1, column: 1)])
    }
}
