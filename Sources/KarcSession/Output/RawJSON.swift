/// JSON text, written into a JSON line as it is.
struct RawJSON {
    let text: String
}
