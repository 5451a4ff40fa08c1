import KarcLanguage
import KarcTestExport

/// What the tools that run a session of their own (`check`, `export-test`,
/// `export-diagram`: KarcScriptTools) may set and read of it, and nothing else.
extension ShellSession {
    /// How output names a script (`check` names a transcript's neighbours from its own directory).
    package var scriptName: @Sendable (String) -> String {
        get { renderer.scriptName }
        set { renderer.scriptName = newValue }
    }

    /// Whether the test steps keep each target's state as a change left it (`export-test SCRIPT` asserts them).
    package var keepsTestStates: Bool {
        get { log.keepsStates }
        set { log.keepsStates = newValue }
    }

    /// What the session did, as a generated test replays it.
    package var testSteps: [TestStep] { Array(log.testSteps.entries) }
}
