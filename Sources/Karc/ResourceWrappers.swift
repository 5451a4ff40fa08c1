import KarcAsync
import KarcSynchronization
import Synchronization

/// A resource a pipeline needs before its pipes start, and gives back when it stops.
protocol ResourceSlot: Sendable {
    func prepare() async throws
    func finish() async
}

/// Injects a resource that an ``Injector`` scope of the model keeps acquired.
///
/// Declared inside a pipeline factory; the pipeline resolves it before its
/// pipes start and does not start them if it cannot (the error is logged).
///
/// ```swift
/// @Inject<StorageResource, DefaultId>(environ) var storage
/// ```
@propertyWrapper
public struct Inject<R: Sendable, Id: Hashable & Sendable>: Sendable {
    /// The resolved resource behind the declaration: `try $storage.resolve()`.
    public let projectedValue: InjectedResource<R, Id>

    /// Declares the resource registered under `id` in `environ`.
    public init(_ environ: Environ, id: Id) {
        projectedValue = InjectedResource(environ: environ, id: id)
        PipelineBuildContext.add(projectedValue)
    }

    /// The resource. Reading it when no ``Injector`` scope provides it is a
    /// programming error that stops the process with a message naming the
    /// missing scope; use `try $storage.resolve()` to get an error instead.
    public var wrappedValue: R {
        do {
            return try projectedValue.resolve()
        } catch {
            preconditionFailure("@Inject<\(R.self)>: \(error)")
        }
    }
}

extension Inject where Id == DefaultId {
    /// Declares the resource registered under the default id in `environ`.
    public init(_ environ: Environ) { self.init(environ, id: .shared) }
}

/// The resolved value behind an `@Inject` declaration.
public final class InjectedResource<R: Sendable, Id: Hashable & Sendable>: ResourceSlot {
    let environ: Environ
    let id: Id
    private let cached = KarcMutex<R?>(nil)

    init(environ: Environ, id: Id) {
        self.environ = environ
        self.id = id
    }

    /// The resource, or the reason it is not available.
    public func resolve() throws -> R {
        if let resource = cached.withLock({ $0 }) { return resource }
        let resource = try environ.resolveNow(R.self, id: id)
        cached.withLock { $0 = resource }
        return resource
    }

    func prepare() async throws { _ = try resolve() }
    func finish() async {}
}

/// Uses a resource for the life of the pipeline that declares it: acquired
/// before the pipeline's pipes start, released after they stop.
///
/// ```swift
/// @Use<WebResource, DefaultId>(environ) var web
/// ```
@propertyWrapper
public struct Use<R: Sendable, Id: Hashable & Sendable>: Sendable {
    /// The acquired resource behind the declaration.
    public let projectedValue: UsedResource<R, Id>

    /// Declares the resource registered under `id` in `environ`, acquired while the pipeline runs.
    public init(_ environ: Environ, id: Id) {
        projectedValue = UsedResource(environ: environ, id: id)
        PipelineBuildContext.add(projectedValue)
    }

    /// The resource. Reading it outside a running pipeline (where nothing
    /// acquired it) is a programming error that stops the process with a
    /// message; use `try $web.resolve()` to get an error instead.
    public var wrappedValue: R {
        do {
            return try projectedValue.resolve()
        } catch {
            preconditionFailure("@Use<\(R.self)>: \(error)")
        }
    }
}

extension Use where Id == DefaultId {
    /// Declares the resource registered under the default id in `environ`, acquired while the pipeline runs.
    public init(_ environ: Environ) { self.init(environ, id: .shared) }
}

/// The acquired value behind a `@Use` declaration.
public final class UsedResource<R: Sendable, Id: Hashable & Sendable>: ResourceSlot {
    let environ: Environ
    let id: Id
    private let acquired = KarcMutex<R?>(nil)

    init(environ: Environ, id: Id) {
        self.environ = environ
        self.id = id
    }

    /// The resource, or why it is not available.
    public func resolve() throws -> R {
        guard let resource = acquired.withLock({ $0 }) else {
            throw EnvironError.notAcquired(resource: "\(R.self)", id: "\(id)")
        }
        return resource
    }

    func prepare() async throws {
        try await environ.acquire(R.self, id: id)
        let resource = try environ.resolveNow(R.self, id: id)
        acquired.withLock { $0 = resource }
    }

    func finish() async {
        let wasAcquired = acquired.withLock { value -> Bool in
            defer { value = nil }
            return value != nil
        }
        if wasAcquired { try? await environ.release(R.self, id: id) }
    }
}
