import Foundation

extension EvaluationReport {
    /// Command acceptance against signal-to-noise ratio, a line per voice, a panel per kind of
    /// noise (each starting from clean); false accepts are the dashed lines when the test set has
    /// no-match sentences.
    package func accuracyPlot() -> String {
        let kinds = Array(
            Set(clips.compactMap { clip in clip.snr.map { _ in Self.noiseKind(clip.condition) } })
        )
        .sorted()
        let panels = kinds.isEmpty ? [""] : kinds
        let panelWidth = 330.0
        let left = 70.0
        let top = 75.0
        let height = 260.0
        let legendWidth = 190.0
        let width = max(left + Double(panels.count) * (panelWidth + 30) + legendWidth, 640)
        var body = SVG.text(x: 20, y: 22, "\(app): accuracy against noise", size: 15, bold: true)
        body += SVG.text(
            x: 20, y: 40,
            "command acceptance (solid)"
                + (clips.contains { !$0.isCommand } ? ", false accepts on no-match sentences (dashed)" : ""),
            size: 12, color: "#555")
        let hasNoMatch = clips.contains { !$0.isCommand }
        for (number, kind) in panels.enumerated() {
            let x0 = left + Double(number) * (panelWidth + 30)
            // The panel's conditions: clean, then this kind from the highest ratio down.
            let conditions = self.conditions.filter { $0 == "clean" || Self.noiseKind($0) == kind }
            func x(_ index: Int) -> Double {
                conditions.count < 2
                    ? x0 + panelWidth / 2
                    : x0 + 20 + Double(index) / Double(conditions.count - 1) * (panelWidth - 40)
            }
            func y(_ share: Double) -> Double { top + height - share * height }
            body += SVG.rectangle(x: x0, y: top, width: panelWidth, height: height, stroke: "#333")
            body += SVG.text(
                x: x0 + panelWidth / 2, y: top - 8, kind.isEmpty ? "clean" : "\(kind) noise",
                anchor: "middle",
                size: 13, bold: true)
            for share in stride(from: 0.0, through: 1.0, by: 0.2) {
                body += SVG.line(x0, y(share), x0 + panelWidth, y(share), color: "#eee")
                if number == 0 {
                    body += SVG.text(
                        x: x0 - 8, y: y(share) + 4, "\(Int((share * 100).rounded()))%", anchor: "end")
                }
            }
            for (index, condition) in conditions.enumerated() {
                let label =
                    condition == "clean"
                    ? "clean" : condition.split(separator: " ").dropFirst().joined(separator: " ")
                body += SVG.text(x: x(index), y: top + height + 18, label, anchor: "middle")
            }
            for (series, voice) in voices.enumerated() {
                let color = SVG.colors[series % SVG.colors.count]
                let figures = byVoiceAndCondition[voice] ?? [:]
                let accepted = conditions.enumerated().compactMap { index, condition in
                    figures[condition].map { (x: x(index), y: y($0.commandAcceptance)) }
                }
                body += SVG.polyline(accepted, color: color, dots: true)
                if hasNoMatch {
                    let falseAccepts = conditions.enumerated().compactMap { index, condition in
                        figures[condition].map { (x: x(index), y: y($0.falseAccepts)) }
                    }
                    body += SVG.polyline(falseAccepts, color: color, thickness: 1.5, dash: "5 3")
                }
            }
        }
        body += SVG.text(x: 18, y: top + height / 2, "share of clips", anchor: "middle", rotate: true)
        body += SVG.text(
            x: left + (width - left - legendWidth) / 2, y: top + height + 40, "signal-to-noise ratio (dB)",
            anchor: "middle")
        var legend = top + 10
        let legendX = width - legendWidth + 10
        for (series, voice) in voices.enumerated() {
            let color = SVG.colors[series % SVG.colors.count]
            body += SVG.line(legendX, legend, legendX + 28, legend, color: color, thickness: 2)
            body += SVG.text(x: legendX + 34, y: legend + 4, voice, size: 11)
            legend += 18
        }
        return SVG.document(width: width, height: top + height + 60, body)
    }

    /// How long transcripts took after the end of the audio that ended each utterance: a
    /// histogram over every clip heard.
    package func latencyPlot() -> String {
        let values = clips.filter { !$0.heard.isEmpty }.map { $0.latency * 1_000 }
        let width = 760.0
        let left = 70.0
        let top = 60.0
        let height = 240.0
        let plotWidth = width - left - 30
        let highest = max(SVG.niceCeiling((values.max() ?? 1) * 1.05), 1)
        let bins = 30
        var counts = [Int](repeating: 0, count: bins)
        for value in values { counts[min(bins - 1, Int(value / highest * Double(bins)))] += 1 }
        let most = Double(max(counts.max() ?? 1, 1))
        let figures = overall.latencyMilliseconds
        var body = SVG.text(x: 20, y: 22, "\(app): latency after the audio ends", size: 15, bold: true)
        body += SVG.text(
            x: 20, y: 40,
            "ms from the chunk that ended the utterance to its transcript; \(values.count) clips, median \(SVG.number(figures.median)), p90 \(SVG.number(figures.p90)), max \(SVG.number(figures.maximum))",
            size: 12, color: "#555")
        body += SVG.rectangle(x: left, y: top, width: plotWidth, height: height, stroke: "#333")
        let barWidth = plotWidth / Double(bins)
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = Double(count) / most * height
            body += SVG.rectangle(
                x: left + Double(index) * barWidth + 1, y: top + height - barHeight, width: barWidth - 2,
                height: barHeight, fill: SVG.colors[0])
        }
        let step = SVG.niceStep(highest / 8)
        var tick = 0.0
        while tick <= highest + 1e-9 {
            let x = left + tick / highest * plotWidth
            body += SVG.line(x, top + height, x, top + height + 5, color: "#333")
            body += SVG.text(
                x: x, y: top + height + 18, SVG.number(tick).replacingOccurrences(of: ".0", with: ""),
                anchor: "middle")
            tick += step
        }
        let countStep = SVG.niceStep(most / 5)
        var count = 0.0
        while count <= most {
            let y = top + height - count / most * height
            body += SVG.text(x: left - 8, y: y + 4, "\(Int(count))", anchor: "end")
            count += countStep
        }
        body += SVG.text(x: left + plotWidth / 2, y: top + height + 38, "milliseconds", anchor: "middle")
        body += SVG.text(x: 18, y: top + height / 2, "clips", anchor: "middle", rotate: true)
        return SVG.document(width: width, height: top + height + 56, body)
    }

    /// `babble` for `babble 10 dB`.
    static func noiseKind(_ condition: String) -> String {
        String(condition.split(separator: " ").first ?? "")
    }
}
