import KarcAttachProtocol
import KarcSession

extension ShellOptions {
    /// The options an attached shell's `Hello` asks for (its command-line
    /// flags), as its session's; an unknown value is refused, naming what is
    /// accepted. What a shell sends is untrusted: this is fuzzed
    /// (`karc-fuzz attach`).
    package init(attaching given: Karc_Attach_V1_SessionOptions) throws(AttachError) {
        self.init()
        printing.json = given.json
        printing.jsonStates = given.jsonStates
        printing.trace = given.trace
        printing.echo = given.echo
        keepGoing = given.keepGoing
        if given.timeoutMs > 0 { timeout = .milliseconds(Int64(clamping: given.timeoutMs)) }
        printing.color = given.color
        if !given.diff.isEmpty {
            guard let mode = DiffMode(rawValue: given.diff) else {
                throw AttachError("unknown diff mode '\(given.diff)': expected on, summary or off")
            }
            printing.diff = mode
        }
        printing.quiet = given.quiet
        history.recordFile = given.recordFile.isEmpty ? nil : given.recordFile
        history.recordsFailures = given.recordFailures
        startupDirectory = given.startupDirectory.isEmpty ? nil : given.startupDirectory
        watches = given.watches
        testExport = TestExportOptions(factory: given.testFactory.isEmpty ? nil : given.testFactory, imports: given.testImports)
    }
}
