@_exported import KarcSessionTrellis
// A Trellis cluster's shell is the whole shell: one import gives both
// (`Shell`, `ShellOptions`, `ShellArguments` … and `ClusterShell`).
@_exported import KarcShell
