/// Builds a service tree from service expressions, `if`, `if`/`else` and `for`,
/// with no limit on the number of children.
@resultBuilder
public enum ServiceBuilder {
    /// Result builder: one component.
    public static func buildExpression(_ service: some Service) -> [any Service] { [service] }
    /// Result builder: the components of a block, in order.
    public static func buildBlock(_ parts: [any Service]...) -> [any Service] { parts.flatMap { $0 } }
    /// Result builder: an `if` without `else` (nothing when false).
    public static func buildOptional(_ part: [any Service]?) -> [any Service] { part ?? [] }
    /// Result builder: the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [any Service]) -> [any Service] { first }
    /// Result builder: the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [any Service]) -> [any Service] { second }
    /// Result builder: a `for` loop's components.
    public static func buildArray(_ parts: [[any Service]]) -> [any Service] { parts.flatMap { $0 } }
    /// Result builder: an `if #available` branch.
    public static func buildLimitedAvailability(_ part: [any Service]) -> [any Service] { part }
    /// Result builder: the finished value.
    public static func buildFinalResult(_ parts: [any Service]) -> Group { Group(children: parts) }
}
