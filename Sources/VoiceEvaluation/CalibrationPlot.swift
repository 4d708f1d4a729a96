import Foundation
import VoiceRecognition

extension Calibration {
    /// Two panels: false accepts against false rejects as the threshold moves (the trade-off
    /// curve), and both against the threshold; the tuning half solid, the held-out half dashed,
    /// the chosen threshold marked. Empty panels when there is no `curve`.
    package func plot() -> String {
        let points = curve ?? []
        let panel = 330.0
        let gap = 90.0
        let left = 70.0
        let top = 96.0
        let width = left + 2 * panel + gap + 40
        var body = SVG.text(x: 20, y: 22, "\(app): confidence threshold", size: 15, bold: true)
        // The measure has a line of its own: with a garbage path, its name is long.
        body += SVG.text(x: 20, y: 40, measure, size: 12, color: "#555")
        body += SVG.text(
            x: 20, y: 56,
            "tuning half solid, held-out half dashed; chosen \(String(format: "%.2f", threshold)) (false rejects ≤ \(Self.percent(maxFalseRejects)) on the tuning half)",
            size: 12, color: "#555")
        body += SVG.text(
            x: 20, y: 72,
            "false accepts: non-commands accepted; false rejects: commands heard right but under the threshold",
            size: 12, color: "#555")

        // Left: false accepts (y) against false rejects (x); false rejects up to 25% when the cap
        // is at most 10% (where the choice is made), else up to 100%.
        func frame(_ x0: Double, title: String, xLabel: String, xTicks: [(Double, String)]) {
            body += SVG.sharePanel(x: x0, y: top, size: panel, title: title, xLabel: xLabel, xTicks: xTicks)
        }
        let rejectRange = maxFalseRejects <= 0.1 ? 0.25 : 1
        let percentTicks = stride(from: 0.0, through: 1.0, by: 0.2).map { share in
            (share, "\(Int((share * rejectRange * 100).rounded()))%")
        }
        frame(left, title: "trade-off", xLabel: "false rejects", xTicks: percentTicks)
        body += SVG.text(x: 18, y: top + panel / 2, "false accepts", anchor: "middle", rotate: true)
        func tradeOff(_ figures: [Figures], color: String, dash: String) {
            body += SVG.polyline(
                figures.filter { $0.falseRejects <= rejectRange }.map {
                    (
                        x: left + $0.falseRejects / rejectRange * panel,
                        y: top + panel - $0.falseAccepts * panel
                    )
                },
                color: color, dash: dash)
        }
        tradeOff(points.map(\.tuning), color: SVG.colors[0], dash: "")
        tradeOff(points.map(\.heldOut), color: SVG.colors[0], dash: "6 4")
        for (figures, color) in [(tuning, SVG.colors[0]), (heldOut, SVG.colors[1])] {
            let x = left + min(figures.falseRejects / rejectRange, 1) * panel
            let y = top + panel - figures.falseAccepts * panel
            body += "<circle cx=\"\(SVG.number(x))\" cy=\"\(SVG.number(y))\" r=\"4\" fill=\"\(color)\"/>\n"
        }

        // Right: both against the threshold.
        let x1 = left + panel + gap
        let thresholdTicks = stride(from: 0.0, through: 1.0, by: 0.2).map { ($0, String(format: "%.1f", $0)) }
        frame(x1, title: "against the threshold", xLabel: "threshold", xTicks: thresholdTicks)
        let series: [(String, KeyPath<Figures, Double>, String)] = [
            ("false accepts", \.falseAccepts, SVG.colors[1]),
            ("false rejects", \.falseRejects, SVG.colors[0]),
            ("wrong accepts of commands", \.wrongAccepts, SVG.colors[3]),
        ]
        for (_, key, color) in series {
            for (half, dash) in [(\CurvePoint.tuning, ""), (\CurvePoint.heldOut, "6 4")] {
                body += SVG.polyline(
                    points.map { point in
                        let figures = point[keyPath: half]
                        return (
                            x: x1 + figures.threshold * panel, y: top + panel - figures[keyPath: key] * panel
                        )
                    }, color: color, dash: dash)
            }
        }
        let chosen = x1 + threshold * panel
        body += SVG.line(chosen, top, chosen, top + panel, color: "#333", dash: "2 3")
        var legend = top + panel + 60
        for (name, _, color) in series {
            body += SVG.line(x1, legend, x1 + 28, legend, color: color, thickness: 2)
            body += SVG.text(x: x1 + 34, y: legend + 4, name, size: 11)
            legend += 16
        }
        body += SVG.text(
            x: left, y: top + panel + 64,
            "dots: the chosen threshold, tuning (blue) and held out (red)", size: 11, color: "#555")
        return SVG.document(width: width, height: legend + 10, body)
    }

    /// `0.4%` for 0.004.
    static func percent(_ share: Double) -> String {
        let value = share * 100
        return value == value.rounded() ? "\(Int(value))%" : String(format: "%.1f%%", value)
    }
}
