// Models are written against gates, sources and drains; `import Karc` brings them along.
@_exported import KarcAsync
