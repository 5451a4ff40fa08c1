import ArgumentParser
import KarcShell
import Trellis

/// A program that is the shell in front of its own Trellis cluster (a
/// `ShellApp` of KarcShell whose cluster is a `Cluster`); a whole
/// `main.swift`:
///
/// ```swift
/// import KarcShellTrellis
/// import Trellis
///
/// struct Shop: TrellisShellApp {
///     static let name = "shop"
///     static func cluster(for launch: ClusterLaunch<Shop>) async throws -> Cluster {
///         try await Bootstrap { … }
///     }
/// }
/// await Shop.main()
/// ```
///
/// `invariants` hold beside those the cluster's targets declare, each for
/// every target whose state is of its type: the shell checks them after
/// every command, and `explore` looks for a sequence that breaks one.
public protocol TrellisShellApp: ShellApp {
    /// Invariants beyond those the targets declare (none by default).
    static var invariants: [Invariant] { get }

    /// The cluster for `launch.use` (the shell, or one of the tools' fresh runs), made with the options given.
    static func cluster(for launch: ClusterLaunch<Self>) async throws -> Cluster
}

extension TrellisShellApp {
    public static var invariants: [Invariant] { [] }

    public static func shellCluster(for launch: ClusterLaunch<Self>) async throws -> any ShellCluster {
        ClusterShell(name: name, cluster: try await cluster(for: launch), invariants: invariants)
    }
}
