/// Builds a service tree from service expressions, `if`, `if`/`else` and `for`,
/// with no limit on the number of children.
@resultBuilder
public enum ServiceBuilder {
    public static func buildExpression(_ service: some Service) -> [any Service] { [service] }
    public static func buildBlock(_ parts: [any Service]...) -> [any Service] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any Service]?) -> [any Service] { part ?? [] }
    public static func buildEither(first: [any Service]) -> [any Service] { first }
    public static func buildEither(second: [any Service]) -> [any Service] { second }
    public static func buildArray(_ parts: [[any Service]]) -> [any Service] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [any Service]) -> [any Service] { part }
    public static func buildFinalResult(_ parts: [any Service]) -> Group { Group(children: parts) }
}
