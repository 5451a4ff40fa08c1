import Foundation
import KarcRendering
import KarcShellCluster

/// A snapshot as a file (`:snapshot save NAME FILE`, `:snapshot load FILE`):
/// JSON that names the cluster and the schema it was written in, with each
/// target's state as its `Encodable` form writes it.
///
///     {"karc-snapshot":1,"cluster":"demo","name":"before","saved":"…","left":["account"],
///      "states":{"articles":{…},"counter":3}}
///
/// Written whole, mode 0600 (it holds the app's state). Read back only into
/// the same cluster, and only when every state still decodes into its
/// target's type with no field added or gone: otherwise nothing is kept.
package enum SnapshotFile {
    /// The schema written; a file of another is refused.
    package static let schema = 1
    private static let marker = "{\"karc-snapshot\":"

    /// Whether `text` is a snapshot file (it is written 0600).
    package static func isSnapshot(_ text: String) -> Bool { text.hasPrefix(marker) }

    /// Why a snapshot cannot be written or read.
    package struct Problem: Error {
        package let message: String
    }

    /// The file's text for `snapshot` of the cluster `cluster`.
    package static func text(_ snapshot: Snapshots.Kept, cluster: String) throws(Problem) -> String {
        var states: [String] = []
        for (target, state) in snapshot.states.sorted(by: { $0.key < $1.key }) {
            guard let encodable = state as? any Encodable, let json = ValueText.encoded(encodable) else {
                throw Problem(
                    message:
                        "cannot save '\(snapshot.name)': the state of \(target) (\(SnapshotFit.name(type(of: state as Any)))) is not Encodable; "
                        + ":snapshot keeps it in this session, a file needs Codable states")
            }
            states.append(quoted(target) + ":" + json)
        }
        let saved = JSONTime.text(snapshot.time)
        return marker + "\(schema),\"cluster\":" + quoted(cluster) + ",\"name\":" + quoted(snapshot.name) + ",\"saved\":" + quoted(saved)
            + ",\"left\":[" + snapshot.left.map(quoted).joined(separator: ",") + "],\"states\":{" + states.joined(separator: ",") + "}}\n"
    }

    /// The snapshot in `text`, read from `path`, checked against `cluster`;
    /// `name` in place of the one it was saved under.
    package static func read(_ text: String, path: String, into cluster: any RestorableShellCluster, name: String?) throws(Problem) -> Snapshots.Kept
    {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            // A file that starts as an object was meant to be JSON: say where it breaks.
            guard text.drop(while: \.isWhitespace).first == "{" else { throw notASnapshot(path) }
            let reason: String
            do {
                _ = try JSONScan.parse(text)
                // Foundation refused what reads as JSON here (a limit of its own): its words.
                reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            } catch {
                reason = error.message
            }
            throw Problem(message: "\(path) is not valid JSON: \(reason); nothing was read")
        }
        guard let object = parsed as? [String: Any], let version = object["karc-snapshot"] else { throw notASnapshot(path) }
        guard (version as? Int) == schema else {
            throw Problem(message: "\(path) is a snapshot of schema \(version); this karc reads schema \(schema)")
        }
        guard let owner = object["cluster"] as? String, let states = object["states"] as? [String: Any] else {
            throw Problem(message: "\(path) is not a whole karc snapshot: it needs \"cluster\" and \"states\"")
        }
        guard owner == cluster.name else {
            throw Problem(message: "\(path) is a snapshot of the cluster '\(owner)', not of '\(cluster.name)'")
        }
        var kept: [String: any Sendable] = [:]
        for (target, json) in states.sorted(by: { $0.key < $1.key }) {
            kept[target] = try state(json, of: target, in: cluster, path: path)
        }
        let saved = (object["saved"] as? String).flatMap { JSONTime.date(from: $0) } ?? Date()
        let written = object["name"] as? String
        // A name from the file is one `:snapshot` could have given (it is printed, completed and typed back).
        if name == nil, let written, !Snapshots.isName(written) {
            throw Problem(
                message: "\(path) names its snapshot \(quoted(written)), which is no snapshot name (letters, digits, '-', '_' and '.');"
                    + " give it one: :snapshot load \(path) NAME")
        }
        return Snapshots.Kept(
            name: name ?? written ?? "loaded", states: kept, left: object["left"] as? [String] ?? [], time: saved, after: nil,
            file: path)
    }

    private static func notASnapshot(_ path: String) -> Problem {
        Problem(message: "\(path) is not a karc snapshot (a JSON object with \"karc-snapshot\", written by :snapshot save)")
    }

    /// `json`, the state of `target` in the file, as a value of the type the target takes.
    private static func state(_ json: Any, of target: String, in cluster: any RestorableShellCluster, path: String) throws(Problem) -> any Sendable {
        guard let type = cluster.restorableStateType(of: target) else {
            let targets = cluster.catalog.targets.map(\.name)
            guard targets.contains(target) else {
                throw Problem(
                    message: "\(path) holds a state of '\(target)', which \(cluster.name) does not have; targets: \(targets.joined(separator: ", "))")
            }
            throw Problem(message: "\(path) holds a state of '\(target)', which cannot be restored")
        }
        let typeName = SnapshotFit.name(type)
        guard let decodable = type as? any (Decodable & Sendable).Type else {
            throw Problem(message: "the state of \(target) (\(typeName)) is not Decodable, so it cannot be read from \(path)")
        }
        let value: any Decodable & Sendable
        do {
            let data = try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
            do {
                value = try decode(decodable, from: data)
            } catch let error as DecodingError {
                let detail =
                    (try? JSONScan.parse(String(decoding: data, as: UTF8.self))).flatMap { misfit(decodable, json: $0, target: target) }
                    ?? SnapshotFit.describe(error, target: target)
                throw Problem(message: "\(path) does not fit the state of \(target) (\(typeName)) now: \(detail); nothing was read")
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(message: "\(path): the state of \(target) cannot be read: \(error)")
        }
        // A field the file has that the type no longer writes was dropped when decoding: refused too.
        if let encodable = value as? any Encodable, let now = ValueText.encoded(encodable),
            let reread = try? JSONSerialization.jsonObject(with: Data(now.utf8), options: [.fragmentsAllowed]),
            let gone = firstFieldGone(saved: json, now: reread, at: target)
        {
            throw Problem(
                message: "\(path) does not fit the state of \(target) (\(typeName)) now: the field \(gone) is no longer there; nothing was read")
        }
        return value
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }

    private static func misfit<T: Decodable>(_ type: T.Type, json: JSONScan.Value, target: String) -> String? {
        SnapshotFit.misfit(type, json: json, target: target)
    }

    /// The first field (`articles.items[0].tags`) the saved JSON has and the type's JSON now does not.
    private static func firstFieldGone(saved: Any, now: Any, at path: String) -> String? {
        if let saved = saved as? [String: Any], let now = now as? [String: Any] {
            for key in saved.keys.sorted() {
                guard let current = now[key] else {
                    // A nil optional is left out when encoded: gone only if it held something.
                    if saved[key] is NSNull { continue }
                    return path + "." + key
                }
                if let gone = firstFieldGone(saved: saved[key] as Any, now: current, at: path + "." + key) { return gone }
            }
        } else if let saved = saved as? [Any], let now = now as? [Any], saved.count == now.count {
            for (index, pair) in zip(saved, now).enumerated() {
                if let gone = firstFieldGone(saved: pair.0, now: pair.1, at: path + "[\(index)]") { return gone }
            }
        }
        return nil
    }

    private static func quoted(_ text: String) -> String {
        // Proof for `try!`: a String always encodes as JSON.
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
