/// Where a line came from, for error messages.
package struct LineLocation {
    package var script: String?
    package var line: Int?
    /// The line itself, where a caret is drawn under it (at the prompt).
    package var text: String?

    package init(script: String? = nil, line: Int? = nil, text: String? = nil) {
        self.script = script
        self.line = line
        self.text = text
    }
}
