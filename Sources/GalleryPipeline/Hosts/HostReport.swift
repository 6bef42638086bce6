import Foundation
import GalleryConfig

/// A built site against its host, in words: every line `check` prints, `build` prints under its
/// summary and `deploy` refuses with is made here.
public struct HostReport: Sendable {
    public let fit: HostFit
    /// The site's folder and the config it was built from, for messages.
    let site: String
    let configFile: String
    /// What to change, when the site does not fit.
    package let advice: HostAdvice?

    /// What `check` prints: the measurement, the limits' sources, and when over, what to change.
    public var lines: [String] {
        var lines = [fit.line, "limits as published (read \(fit.limits.read)): \(sources)"]
        if fit.fits {
            lines.append("the site fits \(fit.choice.label)")
        } else if let advice {
            lines += advice.lines(fit, site: site, configFile: configFile)
        }
        return lines
    }

    private var sources: String {
        fit.limits.sources.isEmpty ? "none (a folder has no limits)" : fit.limits.sources.joined(separator: ", ")
    }

    /// The refusal `deploy` prints instead of sending anything.
    public var refusal: HostRefusal { HostRefusal(report: self) }
}

/// `galleryssg deploy` refused a site its host would refuse; nothing was sent.
public struct HostRefusal: Error, CustomStringConvertible, Sendable {
    let report: HostReport

    public var description: String {
        let fit = report.fit
        return "\(fit.choice.label) cannot take the site in \(report.site) (\(fit.overSummary)); nothing was sent.\n"
            + report.lines.joined(separator: "\n")
            + "\n--force does not override a host's limits: the host would refuse the upload (docs/hosts.md)"
    }
}

extension HostFit {
    /// `cloudflare-pages (free): 20,612 files of 20,000 — over by 612; largest 4.1 KiB (photos/a/original.jpg)
    /// of 25 MiB; 23.9 MiB in all, no limit published`.
    public var line: String {
        var parts = [
            "\(Words.count(files)) files" + tail(.files, Words.count),
            "largest \(Words.bytes(largestBytes))" + (largestFile.map { " (\($0))" } ?? "")
                + tail(.fileBytes, Words.bytes),
            "\(Words.bytes(totalBytes)) in all" + tail(.totalBytes, Words.bytes)
        ]
        if limits.filesPerFolder != nil {
            parts.append(
                "most in one folder \(Words.count(busiestFolderFiles)) (\(busiestFolder.isEmpty ? "the root" : busiestFolder))"
                    + tail(.filesPerFolder, Words.count))
        }
        return "\(host == .folder ? "folder (no limits)" : choice.label): \(parts.joined(separator: "; "))"
    }

    /// The build's warning when the site is over.
    public var warning: String {
        "the site does not fit \(choice.label) (\(overSummary)); galleryssg deploy refuses it, and galleryssg "
            + "check --host \(host.rawValue)\(plan == .paid ? " --plan paid" : "") says what to change"
    }

    /// `20,612 files of 20,000, a file of 31.2 MiB of 25 MiB`: the limits the site is over.
    var overSummary: String {
        over.map { limit -> String in
            let most = limits[limit] ?? 0
            switch limit {
            case .files: return "\(Words.count(files)) files of \(Words.count(most))"
            case .fileBytes:
                return
                    "\(Words.count(largeFiles.count)) \(largeFiles.count == 1 ? "file" : "files") over \(Words.bytes(most))"
            case .totalBytes: return "\(Words.bytes(totalBytes)) of \(Words.bytes(most))"
            case .filesPerFolder:
                return "\(Words.count(busiestFolderFiles)) files in one folder of \(Words.count(most))"
            }
        }.joined(separator: ", ")
    }

    /// ` of 20,000 — over by 612`, ` of 25 MiB`, or `, no limit published`.
    private func tail(_ limit: Limit, _ text: (Int) -> String) -> String {
        guard let most = limits[limit] else { return host == .folder ? "" : ", no limit published" }
        return " of \(text(most))" + (over.contains(limit) ? " — over by \(text(self[limit] - most))" : "")
    }
}

extension HostAdvice {
    /// The lines under the measurement: the large files, what each change saves, what is enough.
    package func lines(_ fit: HostFit, site: String, configFile: String) -> [String] {
        var lines: [String] = []
        if !largeFiles.isEmpty, let most = fit.limits.fileBytes {
            lines.append("files over \(Words.bytes(most)) (\(Words.count(largeFiles.count))):")
            for (file, kind) in largeFiles.prefix(10) {
                lines.append("  \(file.path) (\(Words.bytes(file.bytes))): \(Self.lowering(kind))")
            }
            if largeFiles.count > 10 { lines.append("  … and \(Words.count(largeFiles.count - 10)) more") }
        }
        if !savings.isEmpty {
            lines.append("what each change saves, counted from the \(Words.count(fit.files)) files in \(site):")
            let width = savings.map { name($0.changes).count }.max() ?? 0
            for saving in savings {
                let label = name(saving.changes)
                lines.append("  \(label.padding(toLength: width, withPad: " ", startingAt: 0))  \(amount(saving))")
            }
        }
        if unplanned > 0 {
            lines.append(
                "\(Words.count(unplanned)) photos' files are not the sizes the config plans (built with other "
                    + "settings?); every change above counts them as kept")
        }
        let limitsLeft = "of \(Words.count(fit.limits.files ?? fit.files)) files"
        if !enough.isEmpty {
            lines.append(
                "enough alone: "
                    + enough.map {
                        "\(name($0.changes)) (leaves \(Words.count($0.filesAfter)) \(limitsLeft), "
                            + "\(Words.bytes($0.bytesAfter)))"
                    }.joined(separator: "; or "))
        } else if let together {
            lines.append(
                (togetherFits ? "no single change is enough; together: " : "not enough even together: ")
                    + "\(name(together.changes)) (leaves \(Words.count(together.filesAfter)) \(limitsLeft), "
                    + "\(Words.bytes(together.bytesAfter)))")
        }
        if paidPlanFits {
            lines.append(
                "or \"deploy\": {\"plan\": \"paid\"}: on a Workers Paid plan Cloudflare Pages takes 100,000 files a site "
                    + "(with PAGES_WRANGLER_MAJOR_VERSION=4 set in the Pages project)")
        }
        lines.append("change \(configFile), build, and check or deploy again")
        return lines
    }

    /// `120 files, 1.1 MiB`; `about` where the change adds sizes the site does not have; a change
    /// the grid's own sizes make up for saves none, or adds files.
    private func amount(_ saving: Saving) -> String {
        let bytes = (saving.estimated ? "about " : "") + Words.bytes(abs(saving.bytes))
        let widths = saving.changes.allSatisfy {
            if case .dropWidth = $0 { return true }
            return false
        }
        let why = widths ? " (the grid's own sizes fill the gap)" : ""
        switch saving.files {
        case ..<0: return "adds \(Words.count(-saving.files)) files, \(bytes)\(why)"
        case 0: return "saves no file\(why)"
        default: return "\(Words.count(saving.files)) files, \(saving.bytes < 0 ? "adds " : "")\(bytes)"
        }
    }

    /// `images.webp: false, images.widths without 1200 and 800`.
    package func name(_ changes: [Change]) -> String {
        let dropped = changes.compactMap { change -> Int? in
            if case .dropWidth(let width) = change { return width }
            return nil
        }
        var names = dropped.isEmpty ? [] : ["images.widths without \(Words.list(dropped.map(String.init)))"]
        for change in changes {
            switch change {
            case .dropWidth: continue
            case .noGridSteps: names.append("images.gridSteps: false")
            case .noWebP: names.append("images.webp: false")
            case .noAVIF: names.append("images.avif: false")
            case .noOriginals: names.append("images.publishOriginals: false")
            case .noZips: names.append("download: \"photo\" (no album zips)")
            }
        }
        return names.joined(separator: ", ")
    }

    /// What lowers or removes a file of `kind` that is over the size limit.
    package static func lowering(_ kind: LargeKind) -> String {
        switch kind {
        case .original: "a published original; images.publishOriginals: false links the largest size instead"
        case .zip: "an album's zip; download: \"photo\" (in the config and album indexes) publishes no zips"
        case .clip: "a clip's web file; a lower video.maxBitrate (its size is bitrate × length) or video.maxSeconds"
        case .motion: "a Live Photo's motion; a lower video.maxBitrate, or video.livePhotos: false"
        case .derivative(let format):
            "a derivative (\(format)); a lower images.preview or images.quality"
                + (format == "jpg" ? "" : ", or images.\(format): false")
        case .other: "not made from a photo (a file of the theme's static folder?); make it smaller"
        }
    }
}

/// Numbers as the reports write them.
package enum Words {
    /// `20,612`.
    package static func count(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }

    /// `512 B`, `4.1 KiB`, `25 MiB`, `1 GiB`: binary units, as the hosts state their limits.
    package static func bytes(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let whole = value.rounded() == value || unit == 0
        return (whole ? String(Int(value)) : String(format: "%.1f", value)) + " " + units[unit]
    }

    /// `a`, `a and b`, `a, b and c`.
    package static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
