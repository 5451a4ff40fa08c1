/// How the shell writes trace and span ids: lowercase hexadecimal (`2a`),
/// in `--json` (`trace`, `span`, `parent`) and in `:trace`'s output.
package enum TraceIDs {
    package static func text(_ id: UInt64) -> String { String(id, radix: 16) }
}
