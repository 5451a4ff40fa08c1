// `Shell.run`, `Shell.check`, `Shell.exportTest` and `Shell.explore` come with the shell.
@_exported import KarcExplore
@_exported import KarcScriptTools
@_exported import KarcSession
