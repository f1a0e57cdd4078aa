import AdjustKit
import Foundation

/// `adjust fidelity --html`: one self-contained page (no file or network fetch: every image is a
/// `data:` URI) with the run's summary on top, then per photo adjust's render beside Apple's and
/// their difference map, with the figures; then the photos that were not compared.
enum FidelityPage {
    /// Thumbnails' longer side at most, in pixels.
    static let thumbnailSide = 512
    /// How much the difference map amplifies |adjust − Apple|.
    static let differenceGain = 4

    static func html(reports: [FidelityReport], summary: FidelitySummary, command: [String], date: Date = Date()) -> String {
        let stamp = ISO8601DateFormatter().string(from: date)
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>adjust fidelity: \(summary.compared) compared</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; background: #f4f4f4; color: #111; }
        h1 { font-size: 1.5em; margin: 0 0 .3em; }
        h2 { font-size: 1.05em; margin: 0 0 .4em; word-break: break-all; }
        table { border-collapse: collapse; margin: .4em 0; }
        td, th { padding: .15em .7em .15em 0; text-align: left; vertical-align: top; }
        th { font-weight: 600; }
        .summary { background: #fff; padding: 1em; border: 1px solid #ccc; margin-bottom: 1.5em; }
        .summary td { font-size: 1.2em; }
        .photo { background: #fff; padding: 1em; border: 1px solid #ccc; margin-bottom: 1.5em; }
        .images { display: flex; flex-wrap: wrap; gap: 12px; margin: .6em 0; }
        figure { margin: 0; }
        figure img { display: block; max-width: min(512px, 31vw); max-height: 512px; border: 1px solid #999; background: #000; }
        figcaption { font-size: .9em; color: #444; }
        .note { color: #555; font-size: .9em; }
        .status-failed { color: #a00; }
        code { font-size: .95em; }
        </style>
        </head>
        <body>
        <h1>adjust fidelity</h1>
        <p class="note">\(escape(stamp)) · <code>\(escape(command.joined(separator: " ")))</code></p>
        <div class="summary" id="summary">
        <table>
        <tr><th>photos compared</th><th>worse than unedited</th><th>mean PSNR</th><th>mean unedited PSNR</th><th>mean gain</th><th>min NCC</th></tr>
        <tr><td>\(summary.compared) of \(reports.count)</td><td>\(summary.worse)</td><td>\(psnr(summary.meanPSNR))</td><td>\(psnr(summary.meanUneditedPSNR))</td><td>\(gain(summary.meanGain))</td><td>\(ncc(summary.minNCC))</td></tr>
        </table>
        <p class="note">Every image is converted to 8-bit sRGB from its embedded ICC profile (untagged = sRGB) before it is compared.
        PSNR: adjust's render against Apple's. Unedited: the original with only the edit's geometry (crop, straighten, orientation), no colour step, against Apple's render.
        Gain: PSNR − unedited. NCC: grey normalized cross-correlation of the two renders (≥ 0.999 when the geometry matches).
        <strong>Difference maps show the absolute difference |adjust − Apple| per channel, amplified ×\(differenceGain)</strong>
        (black = identical; full brightness = a difference of \(255 / differenceGain) or more out of 255).
        Thumbnails are at most \(thumbnailSide) px.</p>
        </div>

        """
        for report in reports where report.status == .compared {
            page += section(report)
        }
        let skipped = reports.filter { $0.status != .compared }
        if !skipped.isEmpty {
            page += "<div class=\"photo\" id=\"not-compared\"><h2>Not compared</h2>\n<table>\n<tr><th>photo</th><th>layout</th><th>status</th><th>why</th></tr>\n"
            for report in skipped {
                let why = report.error.map { Diagnostics.message($0) } ?? report.note ?? ""
                page += "<tr class=\"status-\(escape(report.status.rawValue))\"><td>\(escape(report.name ?? report.original ?? report.edit ?? "?"))</td>"
                    + "<td>\(escape(report.layout.rawValue))</td><td>\(escape(report.status.rawValue))</td><td>\(escape(why))</td></tr>\n"
            }
            page += "</table></div>\n"
        }
        page += "</body>\n</html>\n"
        return page
    }

    private static func section(_ report: FidelityReport) -> String {
        var html = "<div class=\"photo\">\n<h2>\(escape(report.name ?? report.original ?? "?"))</h2>\n"
        html += "<div class=\"images\">\n"
        if let thumbnails = report.thumbnails {
            html += figure(thumbnails.ours, "adjust’s render (\(report.ourSize?.description ?? "?"))")
            html += figure(thumbnails.apple, "Apple’s render (\(report.appleSize?.description ?? "?"))")
            if let difference = thumbnails.difference {
                html += figure(difference, "difference |adjust − Apple| ×\(differenceGain)")
            } else {
                html += "<figure><figcaption>no difference map: the sizes differ</figcaption></figure>\n"
            }
        }
        html += "</div>\n<table>\n"
        func row(_ name: String, _ value: String) { html += "<tr><th>\(escape(name))</th><td>\(escape(value))</td></tr>\n" }
        row("status", report.statusName)
        row("layout", report.layout.rawValue)
        row("edit", report.edit ?? "—")
        row("Apple’s render", report.appleRender ?? "—")
        row("adjustments", report.adjustments.isEmpty ? "none" : report.adjustments.joined(separator: ", "))
        row("PSNR", psnr(report.psnr))
        row("unedited PSNR", psnr(report.uneditedPSNR))
        row("gain", gain(report.gain))
        row("NCC", ncc(report.ncc))
        let sizes = "\(report.ourSize?.description ?? "?") / Apple’s \(report.appleSize?.description ?? "?")"
        row("size", (report.sizeMatch == true ? "same: " : "differ: ") + sizes)
        row("shift", report.shift.map { String(format: "%+.2f, %+.2f px (peak %.2f)", $0.dx, $0.dy, $0.peak) } ?? "—")
        row("colour converted from", "ours \(report.ourColour ?? "?"), Apple’s \(report.appleColour ?? "?")")
        row("not replayed", report.notReplayed.isEmpty ? "—" : report.notReplayed.joined(separator: "; "))
        row("approximate", report.approximations.isEmpty ? "—" : report.approximations.joined(separator: "; "))
        for (unknown, name) in report.best { row("best \(unknown.rawValue)", name) }
        html += "</table>\n</div>\n"
        return html
    }

    private static func figure(_ jpeg: [UInt8], _ caption: String) -> String {
        "<figure><img alt=\"\(escape(caption))\" src=\"data:image/jpeg;base64,\(Data(jpeg).base64EncodedString())\">"
            + "<figcaption>\(escape(caption))</figcaption></figure>\n"
    }

    private static func psnr(_ value: Double?) -> String {
        guard let value else { return "—" }
        return value.isInfinite ? "∞ (identical)" : String(format: "%.2f dB", value)
    }

    private static func gain(_ value: Double?) -> String { value.map { String(format: "%+.2f dB", $0) } ?? "—" }

    private static func ncc(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "—" }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
