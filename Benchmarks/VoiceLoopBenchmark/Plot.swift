import Foundation
import VoiceEvaluation

/// The benchmark's figures as one SVG, written by hand: the latency distributions (cumulative,
/// per app) above, resident memory over the turns below.
enum Plot {
    static let width = 980.0
    static let colors = SVG.colors

    /// - Parameters:
    ///   - latencies: Per app, seconds from end of speech to recognized, and to the first reply
    ///     sample.
    ///   - window: The endpointer's silence window, and `target` beyond it, in seconds.
    ///   - memory: Resident MiB after each turn.
    static func svg(
        latencies: [(name: String, recognized: [Double], total: [Double])], window: Double, target: Double,
        memory: [(turn: Int, resident: Double)]
    ) -> String {
        var body = ""
        var y = 20.0
        body += SVG.text(
            x: 20, y: y + 10, "Voice loop: end of speech → recognized and → first reply sample", size: 15,
            bold: true)
        y += 30
        body += latencyPanel(latencies, window: window, target: target, top: y, height: 280)
        y += 370
        if !memory.isEmpty {
            body += memoryPanel(memory, top: y, height: 220)
            y += 280
        }
        return SVG.document(width: width, height: y, body)
    }

    // MARK: Panels

    static let left = 70.0
    static let right = 250.0

    /// Share of turns (0 to 1) against milliseconds: a step line per app and part.
    static func latencyPanel(
        _ latencies: [(name: String, recognized: [Double], total: [Double])], window: Double,
        target: Double, top: Double, height: Double
    ) -> String {
        let all = latencies.flatMap { $0.recognized + $0.total } + [window + target]
        let top_ms = SVG.niceCeiling((all.max() ?? 1) * 1_000 * 1.05)
        let bottom_ms = max(0, (((all.min() ?? 0) * 1_000) / 100).rounded(.down) * 100 - 100)
        let plotWidth = width - left - right
        func x(_ seconds: Double) -> Double {
            left + (seconds * 1_000 - bottom_ms) / (top_ms - bottom_ms) * plotWidth
        }
        func y(_ share: Double) -> Double { top + height - share * height }
        var out = frame(top: top, height: height)
        // Axes: milliseconds below, share of turns on the left.
        let step = SVG.niceStep((top_ms - bottom_ms) / 8)
        var tick = (bottom_ms / step).rounded(.up) * step
        while tick <= top_ms {
            let position = x(tick / 1_000)
            out += SVG.line(position, top + height, position, top + height + 5, color: "#333")
            out += SVG.text(x: position, y: top + height + 18, "\(Int(tick))", anchor: "middle")
            tick += step
        }
        out += SVG.text(
            x: left + plotWidth / 2, y: top + height + 36,
            "ms after the chunk holding the last speech sample was handed over",
            anchor: "middle")
        for share in stride(from: 0.0, through: 1.0, by: 0.25) {
            out += SVG.line(left - 5, y(share), left, y(share), color: "#333")
            out += SVG.text(x: left - 8, y: y(share) + 4, "\(Int(share * 100))%", anchor: "end")
            if share > 0 { out += SVG.line(left, y(share), left + plotWidth, y(share), color: "#eee") }
        }
        out += SVG.text(x: 18, y: top + height / 2, "share of turns", anchor: "middle", rotate: true)
        // The silence window and the target beyond it.
        out += SVG.line(x(window), top, x(window), top + height, color: "#888", dash: "4 3")
        out += SVG.text(x: x(window) - 4, y: top + 14, "silence window", anchor: "end", color: "#666")
        out += SVG.line(
            x(window + target), top, x(window + target), top + height, color: "#d62728", dash: "6 3")
        out += SVG.text(
            x: x(window + target) - 4, y: top + height - 8, "target: window + \(Int(target * 1_000)) ms",
            anchor: "end", color: "#d62728")
        // One cumulative step line per app and part; the legend on the right.
        var legend = top + 10
        for (index, app) in latencies.enumerated() {
            let color = colors[index % colors.count]
            for (values, dash, label) in [
                (app.recognized, "5 3", "\(app.name): recognized"),
                (app.total, "", "\(app.name): first reply sample"),
            ] where !values.isEmpty {
                let sorted = values.sorted()
                var points = "\(format(x(sorted[0]), 1)),\(format(y(0), 1))"
                for (rank, value) in sorted.enumerated() {
                    points += " \(format(x(value), 1)),\(format(y(Double(rank) / Double(sorted.count)), 1))"
                    points +=
                        " \(format(x(value), 1)),\(format(y(Double(rank + 1) / Double(sorted.count)), 1))"
                }
                out +=
                    "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") points=\"\(points)\"/>\n"
                out += SVG.line(
                    width - right + 15, legend, width - right + 45, legend, color: color, dash: dash,
                    thickness: 2)
                out += SVG.text(x: width - right + 50, y: legend + 4, label, size: 11)
                legend += 18
            }
        }
        return out
    }

    /// Resident MiB against turns.
    static func memoryPanel(_ memory: [(turn: Int, resident: Double)], top: Double, height: Double) -> String
    {
        let plotWidth = width - left - right
        let maxTurn = Double(max(memory.map(\.turn).max() ?? 1, 1))
        let low = ((memory.map(\.resident).min() ?? 0) / 5).rounded(.down) * 5 - 5
        let high = max(((memory.map(\.resident).max() ?? 0) / 5).rounded(.up) * 5 + 5, low + 10)
        func x(_ turn: Double) -> Double { left + turn / maxTurn * plotWidth }
        func y(_ mib: Double) -> Double { top + height - (mib - low) / (high - low) * height }
        var out = SVG.text(
            x: 20, y: top - 12, "Resident memory of listen --mute over the turns", size: 13, bold: true)
        out += frame(top: top, height: height)
        let step = SVG.niceStep(maxTurn / 8)
        var tick = 0.0
        while tick <= maxTurn {
            out += SVG.line(x(tick), top + height, x(tick), top + height + 5, color: "#333")
            out += SVG.text(x: x(tick), y: top + height + 18, "\(Int(tick))", anchor: "middle")
            tick += step
        }
        out += SVG.text(x: left + plotWidth / 2, y: top + height + 36, "turns", anchor: "middle")
        let mibStep = SVG.niceStep((high - low) / 5)
        var mib = (low / mibStep).rounded(.up) * mibStep
        while mib <= high {
            out += SVG.line(left - 5, y(mib), left, y(mib), color: "#333")
            out += SVG.text(x: left - 8, y: y(mib) + 4, format(mib, mibStep < 1 ? 1 : 0), anchor: "end")
            out += SVG.line(left, y(mib), left + plotWidth, y(mib), color: "#eee")
            mib += mibStep
        }
        out += SVG.text(x: 18, y: top + height / 2, "MiB resident", anchor: "middle", rotate: true)
        let points = memory.map { "\(format(x(Double($0.turn)), 1)),\(format(y($0.resident), 1))" }
        out +=
            "<polyline fill=\"none\" stroke=\"\(colors[0])\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
        for sample in [memory.first(where: { $0.turn >= 10 }), memory.last].compactMap({ $0 }) {
            out +=
                "<circle cx=\"\(format(x(Double(sample.turn)), 1))\" cy=\"\(format(y(sample.resident), 1))\" r=\"4\" fill=\"\(colors[1])\"/>\n"
            out += SVG.text(
                x: x(Double(sample.turn)), y: y(sample.resident) - 8,
                "turn \(sample.turn): \(format(sample.resident, 1)) MiB",
                anchor: sample.turn > Int(maxTurn) / 2 ? "end" : "start",
                size: 11)
        }
        return out
    }

    // MARK: Pieces

    static func frame(top: Double, height: Double) -> String {
        "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(width - left - right)\" height=\"\(height)\" fill=\"none\" stroke=\"#333\"/>\n"
    }
}
