import ArgumentParser
import Foundation
import KarcShell

/// `karc attach`'s flags: where the endpoint is, its token, and every flag of the shell.
package struct AttachArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The endpoint: its name (demo), a socket path, unix:PATH, or HOST:PORT. Default: the one endpoint listening under $XDG_RUNTIME_DIR/karc. A lone argument that is a file is the script.",
            valueName: "ADDRESS"))
    package var address: String?

    @Option(help: ArgumentHelp("The endpoint's token (default: NAME.token beside its socket).", valueName: "FILE"))
    package var tokenFile: String?

    @Option(help: ArgumentHelp("For TCP with TLS: the PEM certificate(s) to trust (the endpoint's, or its CA's).", valueName: "FILE"))
    package var tlsCA: String?

    @OptionGroup package var shell: ShellArguments

    @Flag(
        help: ArgumentHelp(
            "Ask the app for a live inspector of this session in a browser, served by the app on its 127.0.0.1, and print its URL on standard error"
                + " (every ClusterEndpoint serves one unless the app turned it off; docs/inspect.md)."))
    package var inspect = false

    package init() {}

    /// The endpoint and the script: a lone argument that names a regular
    /// file (`karc attach tour.karc`) is the script, for the default endpoint.
    package var endpointAndScript: (address: String?, script: String?) {
        guard let address, shell.file == nil else { return (address, shell.file) }
        var status = stat()
        if address == "-" || (stat(address, &status) == 0 && status.st_mode & S_IFMT == S_IFREG) { return (nil, address) }
        return (address, nil)
    }

    package static let discussion = """
        Runs the shell in front of a cluster in another process: an app that runs a ClusterEndpoint, or \
        `karc serve`. The prompt, -e, FILE and standard input work as in `karc`; the app parses and runs \
        each command, so replies, events, diffs and errors are what a local shell prints. Files (:source, \
        :save, :export-test, --record) are on this machine. A script exits 1 at once when the connection \
        is lost. Exit status: 0 when every command succeeded, 1 otherwise; 64 for bad command-line arguments; 130, 143 or 129 when SIGINT, \
        SIGTERM or SIGHUP ended a script (its running command stopped in the app).
        """
}
