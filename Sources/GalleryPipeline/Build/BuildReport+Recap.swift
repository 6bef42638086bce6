extension BuildReport {
    /// The photos the build skipped or published with warnings, again, grouped by reason, for the
    /// lines under the summary: a build of 10,000 photos scrolls its per-photo lines away.
    ///
    /// Each group names at most `perGroup` photos and says how many more there are; at most
    /// `groups` reasons are shown each for skipped photos and warnings. `--report` lists every one.
    /// An empty source's warning and the templates' come first.
    public func recap(perGroup: Int = 10, groups: Int = 20) -> [String] {
        var lines: [String] = []
        if let emptySource { lines.append("warning: \(emptySource)") }
        lines += templateWarnings.map { "warning: \($0)" }
        let photos = failures.filter { $0.otherFile != true }
        let files = failures.filter { $0.otherFile == true }
        lines += Self.recap(photos, heading: "skipped", noun: "photo", perGroup: perGroup, groups: groups)
        lines += Self.recap(files, heading: "not published", noun: "other file", perGroup: perGroup, groups: groups)
        lines += Self.recap(
            warnings.filter { $0.otherFile != true }, heading: "published with warnings", noun: "photo",
            perGroup: perGroup, groups: groups)
        lines += Self.recap(
            warnings.filter { $0.otherFile == true }, heading: "read with warnings", noun: "file", perGroup: perGroup,
            groups: groups)
        return lines
    }

    /// - Parameter noun: What a failure is about (`photo`); the heading counts them, each once however
    ///   many lines it has (a photo with two warnings is one photo published with warnings).
    private static func recap(
        _ failures: [Failure], heading: String, noun: String, perGroup: Int, groups: Int
    ) -> [String] {
        guard !failures.isEmpty else { return [] }
        var order: [String] = []
        var byReason: [String: [Failure]] = [:]
        for failure in failures {
            let reason = "\(failure.stage): \(failure.reason)"
            if byReason[reason] == nil { order.append(reason) }
            byReason[reason, default: []].append(failure)
        }
        // Most photos first; ties keep the order the build met them in.
        order = order.enumerated().sorted {
            (byReason[$0.element]!.count, $1.offset) > (byReason[$1.element]!.count, $0.offset)
        }
        .map(\.element)
        var lines = ["\(count(Set(failures.map(\.id)).count, noun)) \(heading), by reason:"]
        for reason in order.prefix(groups) {
            let members = byReason[reason]!
            lines.append("  \(reason) (\(members.count)):")
            for failure in members.prefix(perGroup) {
                lines.append("    \(failure.id)" + (failure.location.map { " (\($0))" } ?? ""))
            }
            if members.count > perGroup {
                lines.append("    … and \(members.count - perGroup) more; --report lists them")
            }
        }
        if order.count > groups {
            let rest = order.dropFirst(groups).reduce(0) { $0 + byReason[$1]!.count }
            lines.append(
                "  … and \(count(order.count - groups, "more reason")) (\(count(rest, noun))); --report lists them")
        }
        return lines
    }

    /// `1 photo`, `3 photos`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
