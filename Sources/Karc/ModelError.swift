/// Why a model or its domain refused a request.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No model of the domain with this id is set up.
    case notSetUp(domain: String, id: String)
    /// The model was torn down while (or before) the request was made.
    case tornDown(model: String)
    /// A model of this type with this id is set up already.
    case alreadySetUp(model: String, id: String)
    /// No pipe running in the model's current state takes a command of this
    /// type (the scope that has one is not active); a model can say why in
    /// its own words (``Model/refusal(of:in:)``).
    case notTaken(model: String, command: String)

    public var description: String {
        switch self {
        case .notSetUp(let domain, let id):
            return "\(domain) (id \(id)) is not set up; call its model's setUp(_:) first"
        case .tornDown(let model):
            return "\(model) was torn down; set it up again to send to it"
        case .alreadySetUp(let model, let id):
            return "\(model) (id \(id)) is set up already; tear it down first or use another id"
        case .notTaken(let model, let command):
            return "\(model) takes no \(command) in its current state: none of its running pipes handles it (the scope that does is not active)"
        }
    }
}
