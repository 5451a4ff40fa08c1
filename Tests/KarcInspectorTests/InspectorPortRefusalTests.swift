import Foundation
import KarcInspector
import NIOCore
import Testing

/// A port the user names with `--inspect-port` that cannot be had is said
/// as such, with what to do; the system's own errors for a port it chose
/// pass through as they are.
@Suite(.timeLimit(.minutes(1)))
struct InspectorPortRefusalTests {
    @Test func aPortAnotherProgramHoldsIsNamed() {
        let refusal = InspectorServer.refusal(of: 8080, IOError(errnoCode: EADDRINUSE, reason: "bind"))
        #expect(
            refusal?.description
                == "127.0.0.1:8080 is in use by another program: give another --inspect-port, or leave it out for any free port")
    }

    @Test func aPrivilegedPortWithoutThePrivilegeSaysWhichPortsAreOpen() {
        for code in [EACCES, EPERM] {
            let refusal = InspectorServer.refusal(of: 80, IOError(errnoCode: code, reason: "bind"))
            #expect(
                refusal?.description
                    == "127.0.0.1:80 needs a privilege this process lacks (ports below 1024 are the system's): give an --inspect-port from 1024 to 65535, or leave it out for any free port"
            )
        }
    }

    @Test func anyOtherFailureAndAnyPortTheSystemChoseAreLeftAsTheyAre() {
        #expect(InspectorServer.refusal(of: 8080, IOError(errnoCode: EADDRNOTAVAIL, reason: "bind")) == nil)
        #expect(InspectorServer.refusal(of: 0, IOError(errnoCode: EADDRINUSE, reason: "bind")) == nil)
    }
}
