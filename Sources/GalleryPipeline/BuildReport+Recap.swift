extension BuildReport {
    /// The photos the build skipped or published with warnings, again, grouped by reason, for the
    /// lines under the summary: a build of 10,000 photos scrolls its per-photo lines away.
    ///
    /// Each group names at most `perGroup` photos and says how many more there are; at most
    /// `groups` reasons are shown each for skipped photos and warnings. `--report` lists every one.
    /// An empty source's warning and the templates' come first.
    package func recap(perGroup: Int = 10, groups: Int = 20) -> [String] {
        var lines: [String] = []
        if let emptySource { lines.append("warning: \(emptySource)") }
        lines += templateWarnings.map { "warning: \($0)" }
        lines += Self.recap(failures, heading: "skipped", perGroup: perGroup, groups: groups)
        lines += Self.recap(warnings, heading: "published with warnings", perGroup: perGroup, groups: groups)
        return lines
    }

    private static func recap(_ failures: [Failure], heading: String, perGroup: Int, groups: Int) -> [String] {
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
        var lines = ["\(count(failures.count, "photo")) \(heading), by reason:"]
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
                "  … and \(count(order.count - groups, "more reason")) (\(count(rest, "photo"))); --report lists them")
        }
        return lines
    }

    /// `1 photo`, `3 photos`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
