@_exported import KarcSession
