import KarcCommand
import KarcLanguage
import KarcRendering

/// Names a send in a trace as the shell's command language does
/// (`articles.load`): the target, then the command whose type (and enum
/// case) the action has in the target's catalog, else the action's type.
package final class CommandNames {
    private let catalog: Catalog
    /// Names of commands that are not enum cases, by target and type.
    private var plain: [Key: String] = [:]
    /// Whole labels (`counter.increment`) of actions whose label is their type's
    /// (no enum case, no name of their own), by target and type: a flood's changes are named by a lookup.
    private var labels: [Key: String] = [:]

    private struct Key: Hashable {
        package let target: String
        package let type: ObjectIdentifier
    }

    package init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// `target.command`; several targets (joined by `,`) name the command by the first; none: the command alone.
    package func label(_ action: any Sendable, target: String?) -> String {
        guard let target else { return name(of: action, in: nil) }
        let key = Key(target: target, type: ObjectIdentifier(Swift.type(of: action)))
        if let known = labels[key] { return known }
        let first = target.firstIndex(of: ",").map { String(target[..<$0]) } ?? target
        let (name, sameForType) = naming(action, in: first)
        let label = target + "." + name
        if sameForType { labels[key] = label }
        return label
    }

    /// The command's name in `target`, or its type's (with its case, for an enum).
    package func name(of action: any Sendable, in target: String?) -> String {
        naming(action, in: target).name
    }

    /// ``name(of:in:)``, and whether it is its type's: every value of the type
    /// is named so (an enum's case and a named command's path, an emitter's, differ value by value).
    private func naming(_ action: any Sendable, in target: String?) -> (name: String, sameForType: Bool) {
        let named = action as? any NamedCommandAction
        if let named, let target {
            // The command's path, as the shell types it, when the target names such a command.
            let name = Names.kebabPath(named.commandPath)
            if catalog.target(named: target)?.commands.contains(where: { $0.name == name }) == true { return (name, false) }
        }
        let type = ObjectIdentifier(Swift.type(of: action))
        if let target, let known = plain[Key(target: target, type: type)] { return (known, named == nil) }
        let schemas = target.flatMap { catalog.target(named: $0) }?.commands.filter { ObjectIdentifier($0.type) == type } ?? []
        if schemas.count == 1, schemas[0].enumCase == nil, let target {
            plain[Key(target: target, type: type)] = schemas[0].name
            return (schemas[0].name, named == nil)
        }
        let caseName = Self.caseName(of: action)
        if let caseName, let schema = schemas.first(where: { $0.enumCase == caseName }) { return (schema.name, false) }
        let typeName = ValueText.typeName(action)
        return (caseName.map { typeName + "." + $0 } ?? typeName, named == nil && caseName == nil)
    }

    /// The case of an enum value (`fetchArticles`), nil for anything else.
    private static func caseName(of value: Any) -> String? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return nil }
        if let label = mirror.children.first?.label { return label }
        return String(describing: value)
    }
}
