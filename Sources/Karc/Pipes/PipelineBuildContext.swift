#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Collects the `@Inject` and `@Use` declarations made while a model's
/// `scopes` run, so the ``Pipeline`` built next can prepare them before its
/// pipes start.
///
/// `scopes` and the pipeline factories it calls are synchronous, so the
/// collection lives with the evaluating thread (a pthread key) instead of in a
/// task-local: scopes are evaluated after every change of state, and a
/// task-local binding costs an allocation and the task's status lock each time.
enum PipelineBuildContext {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): too many thread-local keys in this process")
        return key
    }()

    /// Runs `body` with an empty collection of its own on this thread.
    static func collecting<T>(_ body: () -> T) -> T {
        let outer = pthread_getspecific(key)
        defer { pthread_setspecific(key, outer) }
        var slots: [any ResourceSlot] = []
        // The pointer is published only while `body` runs, on this thread, and `body` cannot suspend.
        return withUnsafeMutablePointer(to: &slots) { pointer in
            pthread_setspecific(key, pointer)
            return body()
        }
    }

    /// Adds a declaration to the collection of this thread, if one is open.
    static func add(_ slot: any ResourceSlot) {
        current?.pointee.append(slot)
    }

    /// The declarations made since the previous pipeline was built.
    static func takeSlots() -> [any ResourceSlot] {
        guard let slots = current, !slots.pointee.isEmpty else { return [] }
        defer { slots.pointee = [] }
        return slots.pointee
    }

    private static var current: UnsafeMutablePointer<[any ResourceSlot]>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: [any ResourceSlot].self)
    }
}
