import Foundation
import TestSupport
import Testing

@testable import Compose

@Suite("Persistence: file storage, atomic writes, clear errors", .timeLimit(.minutes(1)))
final class PersistenceTests {
    struct Credentials: AnyState, Codable {
        enum CodingKeys: CodingKey {
            case email
        }

        var email = ""
        var password = ""
    }

    struct Counter: AnyState, Codable {
        var count = 0
        var title = ""
    }

    let directory = NSTemporaryDirectory() + "karc-persistence-\(UUID().uuidString)"

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func write(_ data: Data, to path: String) throws {
        try data.write(to: URL(fileURLWithPath: path))
    }

    func storage(_ key: String = "state") -> FilePersistentStorage {
        FilePersistentStorage(key: key, directory: directory)
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aStateSurvivesASaveAndARestore() throws {
        let storage = storage()
        try storage.save(Counter(count: 3, title: "three"))
        #expect(try storage.restore(Counter.self) == Counter(count: 3, title: "three"))
        #expect(storage.path == "\(directory)/state.json")
    }

    @Test func aStoreSavesAndRestoresThroughItsStorage() throws {
        let store = Store<Counter>(storage: storage())
        let seen = Recorder<Int>()
        store.willChange += { seen.record($0.count) }
        store.wrappedValue.count = 7
        try store.persistence.save()
        store.wrappedValue.count = 8

        #expect(try store.persistence.restore())
        #expect(store.wrappedValue.count == 7)
        #expect(seen.values == [7, 8, 7], "a restore that changes the state is a change")
    }

    @Test func restoringWithNothingStoredChangesNothing() throws {
        let store = Store<Counter>(wrappedValue: Counter(count: 1), storage: storage())
        #expect(try store.persistence.restore() == false)
        #expect(store.wrappedValue.count == 1)
        #expect(try EmptyPersistentStorage().restore(Counter.self) == nil)
    }

    @Test func codingKeysChooseWhatIsPersisted() throws {
        let storage = storage()
        let store = Store<Credentials>(storage: storage)
        store.wrappedValue = Credentials(email: "jill@example.com", password: "secret")
        try store.persistence.save()
        #expect(contents(storage.path)?.contains("secret") == false)

        let restored = Store<Credentials>(storage: storage)
        try restored.persistence.restore()
        #expect(restored.wrappedValue == Credentials(email: "jill@example.com", password: ""))
    }

    @Test func purgeErasesTheStoredState() throws {
        let storage = storage()
        try storage.save(Counter(count: 1))
        try storage.purge()
        #expect(!FileManager.default.fileExists(atPath: storage.path))
        try storage.purge()  // nothing stored: not an error
        #expect(try storage.restore(Counter.self) == nil)
    }

    @Test func theFileIsPrivateToItsOwner() throws {
        let storage = storage()
        try storage.save(Counter())
        let file = try FileManager.default.attributesOfItem(atPath: storage.path)
        let folder = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aWriteKilledMidwayLeavesTheOldFileIntact() throws {
        let storage = storage()
        try storage.save(Counter(count: 1, title: "old"))
        let before = contents(storage.path)

        #expect(throws: AtomicFile.SimulatedCrash.self) {
            try storage.save(Counter(count: 2, title: String(repeating: "new", count: 1_000)), crashAfter: 20)
        }

        #expect(contents(storage.path) == before)
        #expect(try storage.restore(Counter.self) == Counter(count: 1, title: "old"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".state.json.tmp-") }
        #expect(leftovers.count == 1, "the torn temporary file is beside the target, never the target")

        try storage.save(Counter(count: 3))
        #expect(try storage.restore(Counter.self) == Counter(count: 3))
    }

    @Test func aSaveRemovesTemporariesOfWritersThatDied() throws {
        let storage = storage()
        try storage.save(Counter())
        let dead = "\(directory)/.state.json.tmp-999999999-1"
        let alive = "\(directory)/.state.json.tmp-1-1"  // pid 1 always exists
        try write(Data("{".utf8), to: dead)
        try write(Data("{".utf8), to: alive)

        try storage.save(Counter(count: 1))

        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: alive))
    }

    @Test func aCorruptFileGivesAnErrorNamingItAndIsLeftUntouched() throws {
        let storage = storage()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let garbage = "{\"count\": 3, \"title\": "
        try write(Data(garbage.utf8), to: storage.path)
        let store = Store<Counter>(wrappedValue: Counter(count: 9), storage: storage)

        let error = #expect(throws: PersistenceError.self) { try store.persistence.restore() }

        guard case .corrupt(let path, _) = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
        #expect(path == storage.path)
        #expect(error?.description.contains(storage.path) == true)
        #expect(error?.description.contains("left untouched") == true)
        #expect(contents(storage.path) == garbage)
        #expect(store.wrappedValue.count == 9)
    }

    @Test func aFileOfTheWrongShapeSaysWhatIsWrongAndWhere() throws {
        let storage = storage()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write(Data(#"{"count": "three", "title": ""}"#.utf8), to: storage.path)
        let error = #expect(throws: PersistenceError.self) { try storage.restore(Counter.self) }
        #expect(error?.description.contains("expected Int at count") == true, "\(String(describing: error))")

        try write(Data(#"{"title": ""}"#.utf8), to: storage.path)
        let missing = #expect(throws: PersistenceError.self) { try storage.restore(Counter.self) }
        #expect(missing?.description.contains(#"missing key "count""#) == true, "\(String(describing: missing))")
    }

    @Test func anUnreadableFileGivesAnErrorNamingIt() throws {
        let storage = storage()
        try FileManager.default.createDirectory(atPath: storage.path, withIntermediateDirectories: true)
        let error = #expect(throws: PersistenceError.self) { try storage.restore(Counter.self) }
        guard case .unreadable(let path, _) = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == storage.path)
    }

    @Test func aDirectoryThatCannotBeCreatedGivesAnErrorNamingTheFile() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write(Data(), to: "\(directory)/plain-file")
        let storage = FilePersistentStorage(key: "state", directory: "\(directory)/plain-file/sub")
        let error = #expect(throws: PersistenceError.self) { try storage.save(Counter()) }
        #expect(error?.description.hasPrefix("cannot save state to \(storage.path)") == true)
    }

    struct Unencodable: Encodable {
        struct Refused: Error {}
        func encode(to encoder: any Encoder) throws { throw Refused() }
    }

    @Test func aStateThatCannotBeEncodedIsNotWrittenAndTheOldFileStays() throws {
        let storage = storage()
        try storage.save(Counter(count: 1))
        let error = #expect(throws: PersistenceError.self) { try storage.save(Unencodable()) }
        #expect(error?.description.contains("cannot encode Unencodable") == true, "\(String(describing: error))")
        #expect(try storage.restore(Counter.self) == Counter(count: 1))
    }

    @Test func aFailedRenameLeavesNoTemporaryBehind() throws {
        let storage = storage()
        try FileManager.default.createDirectory(atPath: storage.path + "/occupied", withIntermediateDirectories: true)
        let error = #expect(throws: PersistenceError.self) { try storage.save(Counter()) }
        #expect(error?.description.hasPrefix("cannot save state to \(storage.path): rename") == true, "\(String(describing: error))")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test(arguments: ["", "../escape", "a/b", ".hidden", String(repeating: "k", count: 201)])
    func aKeyThatCannotBeAFileNameIsRefused(_ key: String) {
        let storage = storage(key)
        #expect(throws: PersistenceError.invalidKey(key)) { try storage.save(Counter()) }
        #expect(throws: PersistenceError.invalidKey(key)) { try storage.restore(Counter.self) }
        #expect(throws: PersistenceError.invalidKey(key)) { try storage.purge() }
    }

    @Test func theDefaultDirectoryFollowsXDG() {
        #expect(FilePersistentStorage.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]) == "/data/karc")
        #expect(FilePersistentStorage.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/share/karc")
        #expect(FilePersistentStorage.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/karc")
        #expect(FilePersistentStorage(key: "k").directory == FilePersistentStorage.defaultDirectory)
    }
}
