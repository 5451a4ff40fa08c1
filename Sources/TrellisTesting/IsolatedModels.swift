import Karc
import Testing

/// Gives each test a model pool of its own: models a test sets up by hand
/// (`TestModel.setUp(config)`, `TestDomain.get`) with the same ids as
/// another test's, running in parallel, do not meet. (A cluster has a pool
/// of its own already.)
///
/// ```swift
/// @Suite(.isolatedModels) struct AccountModelTests { … }
/// ```
public struct IsolatedModels: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ModelPool.$current.withValue(ModelPool()) { try await function() }
    }
}

extension Trait where Self == IsolatedModels {
    /// Each test sets its models up in a pool of its own.
    public static var isolatedModels: Self { IsolatedModels() }
}
