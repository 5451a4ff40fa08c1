/// JSON text, written into a JSON line as it is.
package struct RawJSON {
    package let text: String

    package init(text: String) { self.text = text }
}
