/// Records a struct's memberwise initializer, so that a test `karc
/// export-test` writes builds its values in Swift
/// (`Articles(items: [], nextID: 1, owner: nil)`) instead of decoding them
/// from JSON. Mark the types of states and events this way, and the types
/// inside them.
///
/// ```swift
/// @Memberwise
/// struct Articles: Equatable, Codable {
///     var items: [Article] = []
///     var nextID = 1
/// }
/// ```
///
/// The initializer is the memberwise one, or, when the struct declares
/// initializers (which takes the memberwise one away), one it declares
/// that takes each stored field in order under the field's name (an
/// argument label may be `_`: `init(_ emitter: String)`). Without such an
/// initializer, or with a private stored field, the attribute is an error:
/// declare one. Only a conformance is added, in an extension, so the struct
/// keeps its memberwise initializer.
@attached(extension, conformances: MemberwiseInitializable, names: named(memberwiseInitializer))
public macro Memberwise() = #externalMacro(module: "KarcMacros", type: "MemberwiseMacro")

/// A struct whose initializer that takes each stored field is known (what
/// ``Memberwise()`` adds): a generated test writes its values with it.
public protocol MemberwiseInitializable {
    /// The initializer that takes each stored field, as ``Memberwise()`` read it from the declaration.
    static var memberwiseInitializer: MemberwiseInitializer { get }
}

/// An initializer that takes each stored field of a struct, in order.
public struct MemberwiseInitializer: Sendable, Equatable {
    /// One argument: its label (nil for `_`) and the stored field it sets.
    public struct Parameter: Sendable, Equatable {
        /// The argument label; nil when the argument has none (`_`).
        public var label: String?
        /// The stored field's name, as its mirror names it.
        public var field: String

        /// An argument labelled `label` (nil: `_`) that sets `field`.
        public init(label: String?, field: String) {
            self.label = label
            self.field = field
        }
    }

    /// The arguments, in order.
    public var parameters: [Parameter]

    /// An initializer of these arguments.
    public init(_ parameters: [Parameter]) {
        self.parameters = parameters
    }
}
