extension Names {
    /// A count and its noun, singular for one: `counted(1, "run")` is
    /// `1 run`, `counted(3, "run")` `3 runs`; `plural` for a noun that does
    /// not take an `s` (`entries`).
    package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
