import Foundation
import Testing

@testable import KarcInspector

/// The page the binary serves is the page in the repository
/// (Sources/KarcInspector/Page, embedded by scripts/embed-inspector-page.py).
@Suite(.timeLimit(.minutes(1)))
struct InspectorPageTests {
    @Test func theEmbeddedPageIsThePagesFiles() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/KarcInspector/Page").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: page.path).sorted()
        #expect(names == InspectorPage.files.keys.sorted())
        for name in names {
            let file = try String(contentsOf: page.appendingPathComponent(name), encoding: .utf8)
            // A multi-line literal ends before the file's last newline.
            #expect(
                InspectorPage.files[name]?.body == String(file.dropLast(file.hasSuffix("\n") ? 1 : 0)),
                "\(name) changed: run scripts/embed-inspector-page.py")
        }
    }

    @Test func thePageShowsValuesAsTextNeverAsMarkup() throws {
        let script = try #require(InspectorPage.files["app.js"]?.body)
        #expect(!script.contains("innerHTML"))
        #expect(!script.contains("insertAdjacentHTML"))
        #expect(!script.contains("eval("))
    }
}
