// And where its files are (`ShellHost`) and what its fronts ask (`SessionInbox`): an
// attached session's host and a shell's inspector are given to a session from outside.
@_exported import KarcFronts
@_exported import KarcHost
// A shell's catalog (`Catalog`, `TargetSchema`, …) is part of KarcSession's
// public surface: a cluster conforming to `ShellCluster` provides one.
@_exported import KarcLanguage
// And how a session prints changes (`DiffMode`, one of `ShellOptions`).
@_exported import KarcOutput
// So is what a shell drives (`ShellCluster`, `ShellRecord`, the capabilities):
// a user's cluster conforms to it with `import KarcSession` (or `KarcShell`) alone.
@_exported import KarcShellCluster
// And how a generated test makes its cluster (`TestExportOptions`, a `ShellApp`'s `testExport`).
@_exported import KarcTestExport
