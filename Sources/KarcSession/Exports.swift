// A shell's catalog (`Catalog`, `TargetSchema`, …) is part of KarcSession's
// public surface: a cluster conforming to `ShellCluster` provides one.
@_exported import KarcLanguage
