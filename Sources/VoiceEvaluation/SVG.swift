import Foundation

/// Pieces of SVG drawings written by hand: lines, text, and tick steps. Reports draw their plots
/// with these, so a plot needs no library and opens in any browser.
package enum SVG {
    /// The colours of series, in order.
    package static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"]

    /// A whole drawing of `width` × `height` on white.
    package static func document(width: Double, height: Double, _ body: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
        viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif">
        <rect width="100%" height="100%" fill="white"/>
        \(body)</svg>

        """
    }

    package static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, dash: String = "",
        thickness: Double = 1
    ) -> String {
        "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(color)\" stroke-width=\"\(thickness)\""
            + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") + "/>\n"
    }

    package static func rectangle(
        x: Double, y: Double, width: Double, height: Double, fill: String = "none", stroke: String = "none"
    ) -> String {
        "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>\n"
    }

    /// A line through `points`, with a dot on each when `dots`.
    package static func polyline(
        _ points: [(x: Double, y: Double)], color: String, thickness: Double = 2, dash: String = "",
        dots: Bool = false
    ) -> String {
        var out =
            "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(thickness)\""
            + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"")
            + " points=\"\(points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " "))\"/>\n"
        if dots {
            for point in points {
                out +=
                    "<circle cx=\"\(number(point.x))\" cy=\"\(number(point.y))\" r=\"3\" fill=\"\(color)\"/>\n"
            }
        }
        return out
    }

    package static func text(
        x: Double, y: Double, _ content: String, anchor: String = "start", size: Double = 12,
        bold: Bool = false, color: String = "#222", rotate: Bool = false
    ) -> String {
        let escaped = content.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        return
            "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(Int(size))\" fill=\"\(color)\" text-anchor=\"\(anchor)\""
            + (bold ? " font-weight=\"bold\"" : "")
            + (rotate ? " transform=\"rotate(-90 \(number(x)) \(number(y)))\"" : "")
            + ">\(escaped)</text>\n"
    }

    /// A square panel `size` wide at (`x`, `y`) for shares: its frame, `title` above it, grid
    /// lines and labels from 0% to 100% up the side, a tick at each of `xTicks` (a share of the
    /// width, and its label) and `xLabel` below.
    package static func sharePanel(
        x: Double, y top: Double, size: Double, title: String, xLabel: String, xTicks: [(Double, String)]
    ) -> String {
        var body = rectangle(x: x, y: top, width: size, height: size, stroke: "#333")
        body += text(x: x + size / 2, y: top - 8, title, anchor: "middle", size: 13, bold: true)
        for share in stride(from: 0.0, through: 1.0, by: 0.2) {
            let y = top + size - share * size
            body += line(x, y, x + size, y, color: "#eee")
            body += text(x: x - 8, y: y + 4, "\(Int((share * 100).rounded()))%", anchor: "end")
        }
        for (share, label) in xTicks {
            let tick = x + share * size
            body += line(tick, top, tick, top + size, color: "#eee")
            body += text(x: tick, y: top + size + 18, label, anchor: "middle")
        }
        return body + text(x: x + size / 2, y: top + size + 38, xLabel, anchor: "middle")
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`: a step between axis ticks.
    package static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 1 }
        let power = pow(10, log10(raw).rounded(.down))
        for factor in [1.0, 2, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }

    /// `value` rounded up to a whole number of nice steps.
    package static func niceCeiling(_ value: Double) -> Double {
        let step = niceStep(value / 10)
        return (value / step).rounded(.up) * step
    }

    /// A coordinate with one decimal.
    package static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
