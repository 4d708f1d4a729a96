import Foundation
import VoiceRecognition

extension WakeWordCalibration {
    /// The takes as the settings move, as an SVG drawing: on the left the share of takes the model
    /// wakes on against the cutoff, on the right the share of those the check keeps against its
    /// margin; one line for each way the takes were heard, the chosen settings marked.
    package func plot() -> String {
        let panel = 330.0
        let gap = 90.0
        let left = 70.0
        let top = 80.0
        let width = left + 2 * panel + gap + 40
        var body = SVG.text(x: 20, y: 22, "\(model): the wake word for your takes", size: 15, bold: true)
        let check = checkMargin.map { "the check at \(String(format: "%.0f", $0))" } ?? "no check"
        body += SVG.text(
            x: 20, y: 42,
            "\(takes.count) takes; chosen: cutoff \(String(format: "%.2f", cutoff)) (the model's own \(String(format: "%.2f", modelCutoff))), \(check); \(heard.count) heard",
            size: 12, color: "#555")

        func frame(_ x0: Double, title: String, xLabel: String, ticks: [(Double, String)], yLabel: String) {
            body += SVG.sharePanel(x: x0, y: top, size: panel, title: title, xLabel: xLabel, xTicks: ticks)
            body += SVG.text(x: x0 - 48, y: top + panel / 2, yLabel, anchor: "middle", rotate: true)
        }
        func marker(_ x: Double, _ label: String, color: String, dash: String = "", row: Double = 0) {
            body += SVG.line(x, top, x, top + panel, color: color, dash: dash, thickness: 1.5)
            body += SVG.text(x: x - 4, y: top + 14 + row * 16, label, anchor: "end", color: color)
        }

        // Left: takes woken as the cutoff moves from 0.5 to 1.
        let cutoffs = stride(from: 0.5, through: 1.0, by: 0.01).map { $0 }
        let cutoffX = { (cutoff: Double) in left + (cutoff - 0.5) / 0.5 * panel }
        frame(
            left, title: "woken", xLabel: "cutoff (the model's sliding mean)",
            ticks: stride(from: 0.0, through: 1.0, by: 0.2).map {
                ($0, String(format: "%.1f", 0.5 + $0 / 2))
            },
            yLabel: "takes woken")
        for (index, condition) in conditions.enumerated() {
            let here = takes.filter { $0.condition == condition }
            body += SVG.polyline(
                cutoffs.map { cutoff in
                    let share = Double(here.filter { $0.peak > cutoff }.count) / Double(max(here.count, 1))
                    return (x: cutoffX(cutoff), y: top + panel - share * panel)
                }, color: SVG.colors[index % SVG.colors.count])
            body += SVG.text(
                x: left + 8, y: top + panel - 10 - Double(index) * 16, condition,
                color: SVG.colors[index % SVG.colors.count])
        }
        marker(cutoffX(min(1, max(0.5, modelCutoff))), "model's own", color: "#888", dash: "5 4")
        marker(cutoffX(min(1, max(0.5, cutoff))), "chosen", color: "#d62728", row: 1)

        // Right: of the takes woken at the chosen cutoff, those the check keeps as its margin
        // moves from -100 to +20.
        let x0 = left + panel + gap
        let marginX = { (margin: Double) in x0 + (min(20, max(-100, margin)) + 100) / 120 * panel }
        frame(
            x0, title: "kept by the check", xLabel: "margin (per 10 ms frame)",
            ticks: stride(from: -100.0, through: 20, by: 20).map {
                (($0 + 100) / 120, String(format: "%.0f", $0))
            },
            yLabel: "woken takes kept")
        for (index, condition) in conditions.enumerated() {
            let margins = takes.filter { $0.condition == condition }.compactMap(\.margin)
            guard !margins.isEmpty else { continue }
            body += SVG.polyline(
                stride(from: -100.0, through: 20, by: 1).map { margin in
                    let share = Double(margins.filter { $0 >= margin }.count) / Double(margins.count)
                    return (x: marginX(margin), y: top + panel - share * panel)
                }, color: SVG.colors[index % SVG.colors.count])
        }
        marker(marginX(Self.lowestUsefulMargin), "useful from here", color: "#888", dash: "5 4")
        if let checkMargin { marker(marginX(checkMargin), "chosen", color: "#d62728", row: 1) }
        return SVG.document(width: width, height: top + panel + 60, body)
    }
}
