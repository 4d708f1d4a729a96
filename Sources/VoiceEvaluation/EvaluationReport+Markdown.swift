import Foundation
import VoiceRecognition

extension EvaluationReport {
    /// The report for people: the figures, tables by voice and condition, the confusions, the
    /// worst phrases and the words most often misheard, with what to do about them.
    ///
    /// - Parameters:
    ///   - command: The command that reproduces the report, shown at the top.
    ///   - bar: Which confidence bar the figures count with, and where it came from.
    ///   - plots: The plot files to show, relative to the report.
    ///   - words: Whether a word is part of a value's name, and whether its pronunciation is
    ///     guessed, for the suggestions.
    package func markdown(
        command: String, bar: String? = nil, plots: [String] = [],
        words: (String) -> WordKind = { _ in WordKind() }
    ) -> String {
        let sentences = Set(clips.map { "\($0.source)|\($0.sentence)" }).count
        var out = """
            # Spoken evaluation: \(app)

            \(date): \(clips.count) clips, \(sentences) sentences of the phrase tests in \
            \(voices.count) \(voices.count == 1 ? "voice" : "voices") (\(voices.joined(separator: ", "))) \
            and \(conditions.count) \(conditions.count == 1 ? "condition" : "conditions") \
            (\(conditions.joined(separator: ", "))), heard through the app's grammar as `listen --input` \
            hears them. Reproduce with:

                \(command)


            """
        if let bar { out += "Confidence bar: \(bar).\n\n" }
        out += "## Summary\n\n| figure | value |\n|---|---|\n"
        let o = overall
        out +=
            "| command acceptance (intent and every value right) | \(Self.percent(o.commandAcceptance)) of \(o.commands) |\n"
        out +=
            "| … of the commands the grammar can say word for word | \(Self.percent(o.sayableAcceptance)) of \(o.sayableCommands) |\n"
        out += "| intent accuracy | \(Self.percent(o.intentAccuracy)) |\n"
        for name in o.valueAccuracy.keys.sorted() {
            out +=
                "| value accuracy: `\(name)` | \(Self.percent(o.valueAccuracy[name] ?? 0)) of \(o.valueCounts[name] ?? 0) |\n"
        }
        out +=
            "| false accepts (no-match sentences acted on as a command) | \(Self.percent(o.falseAccepts)) of \(o.noMatchClips) |\n"
        if let asking = o.falseAcceptsThatAsk, asking > 0 {
            out += "| … of them only asking for a value before running anything | \(asking) |\n"
        }
        out +=
            "| false rejects (commands not acted on: they reached nothing or stayed under the bar) | \(Self.percent(o.falseRejects)) of \(o.commands) |\n"
        out += "| commands heard right but under the bar | \(o.rightBelowBar) |\n"
        out += "| word error rate (commands) | \(Self.percent(o.wordErrorRate)) |\n"
        out +=
            "| real-time factor (decoding over audio, one core) | \(String(format: "%.3f", o.realTimeFactor)) |\n"
        let latency = o.latencyMilliseconds
        out +=
            "| latency after the audio ends, median / p90 / p99 / max | \(Self.ms(latency.median)) / \(Self.ms(latency.p90)) / \(Self.ms(latency.p99)) / \(Self.ms(latency.maximum)) ms |\n"
        out += "| sentences cut in two by the end-of-speech detector | \(o.splitClips) |\n\n"
        for plot in plots { out += "![\(plot)](\(plot))\n\n" }

        out += table(
            "Command acceptance by voice and condition", value: { Self.percent($0.commandAcceptance) })
        if o.noMatchClips > 0 {
            out += table("False accepts by voice and condition", value: { Self.percent($0.falseAccepts) })
        }
        out += notes()
        out += confusionTable()
        out += worstPhrasesTable()
        out += misheardWordsTable(words: words)
        return out
    }

    private func table(_ title: String, value: (Figures) -> String) -> String {
        var out = "## \(title)\n\n| voice | " + conditions.joined(separator: " | ") + " | all |\n"
        out += "|---|" + String(repeating: "---|", count: conditions.count + 1) + "\n"
        for voice in voices {
            let figures = byVoiceAndCondition[voice] ?? [:]
            out += "| \(voice) | " + conditions.map { figures[$0].map(value) ?? "" }.joined(separator: " | ")
            out += " | \(byVoice[voice].map(value) ?? "") |\n"
        }
        out += "| **all** | " + conditions.map { byCondition[$0].map(value) ?? "" }.joined(separator: " | ")
        out += " | \(value(overall)) |\n\n"
        return out
    }

    /// What the figures mean where they fall short.
    private func notes() -> String {
        var notes: [String] = []
        if overall.noMatchClips > 0, overall.falseAccepts > 0.01 {
            var seen = Set<String>()
            let examples = clips.filter { $0.isFalseAccept && seen.insert($0.sentence).inserted }.prefix(3)
                .map {
                    "\"\($0.sentence)\" heard as \"\($0.heard)\""
                }
            notes.append(
                "**False accepts.** The recognizer searches only the app's grammar, so any speech comes out as the nearest sentence the grammar allows, and the matcher then takes it for a command: "
                    + examples.joined(separator: "; ")
                    + ". Telling such speech from a command needs a rejection test on the audio (a confidence), not a better matcher."
            )
        }
        let splits = clips.filter { $0.utterances > 1 }
        if !splits.isEmpty {
            notes.append(
                "**Cut sentences.** \(splits.count) clips were heard as two utterances or more (a pause in the sentence was taken for its end); only the first was matched, as `listen` would."
            )
        }
        let nothing = clips.filter { $0.isCommand && $0.heard.isEmpty }
        if !nothing.isEmpty {
            notes.append(
                "**Nothing heard.** \(nothing.count) command clips gave no words at all: no path through the grammar reached its end (what loud noise does to the search), or the voice activity detector did not take the speech for speech."
            )
        }
        guard !notes.isEmpty else { return "" }
        return "## Notes\n\n" + notes.map { "- \($0)\n" }.joined() + "\n"
    }

    private func confusionTable() -> String {
        let rows = confusions.flatMap { expected, got in got.map { (expected, $0.key, $0.value) } }
            .sorted { $0.2 != $1.2 ? $0.2 > $1.2 : ($0.0, $0.1) < ($1.0, $1.1) }
        guard !rows.isEmpty else {
            return "## Confusions\n\nNo clip reached another intent than its test's.\n\n"
        }
        var out = "## Confusions\n\nWhich intent was reached instead of which (the 20 most frequent).\n\n"
        out += "| expected | reached | clips |\n|---|---|---|\n"
        for (expected, got, count) in rows.prefix(20) { out += "| \(expected) | \(got) | \(count) |\n" }
        return out + "\n"
    }

    private func worstPhrasesTable() -> String {
        let worst = worstPhrases(15)
        guard !worst.isEmpty else { return "## Worst phrases\n\nEvery clip was right.\n\n" }
        var out =
            "## Worst phrases\n\n| sentence | right | most often heard as | and reached |\n|---|---|---|---|\n"
        for phrase in worst {
            out +=
                "| \(Self.cell(phrase.sentence)) <br>`\(phrase.source)` | \(phrase.right) of \(phrase.clips) | \(Self.cell(phrase.example?.heard ?? "")) | \(Self.cell(phrase.example?.got ?? "")) |\n"
        }
        return out + "\n"
    }

    private func misheardWordsTable(words: (String) -> WordKind) -> String {
        let misheard = misheardWords(15)
        guard !misheard.isEmpty else { return "## Words most often misheard\n\nNone.\n" }
        var out =
            "## Words most often misheard\n\nIn the clean clips of commands (all clips when none is clean), leaving out clips in which nothing was heard; \"(nothing)\" means the word was lost.\n\n| word | misheard, of times said | heard as | suggestion |\n|---|---|---|---|\n"
        for word in misheard {
            let heardAs = word.heardAs.prefix(3).map { "\($0.0.isEmpty ? "(nothing)" : $0.0) ×\($0.1)" }
            out +=
                "| \(word.word) | \(word.misheard) of \(word.said) | \(heardAs.joined(separator: ", ")) | \(Self.suggestion(for: word, kind: words(word.word))) |\n"
        }
        return out
    }

    /// `97.5%` for 0.975.
    package static func percent(_ share: Double) -> String { String(format: "%.1f%%", share * 100) }
    static func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
