// The rejection benchmark's last two reports: each garbage path's verdicts, alone and with a
// measure, and what the app would do end to end with each clip.

import Foundation
import PhraseMatching
import VoiceRecognition

/// Each garbage setting's false accepts and rejects (held out and tuning), what it changes in the
/// commands' words and what it costs, and the same combined with a continuous measure.
func reportGarbagePaths(
    _ heard: [Outcome], settings garbageSettings: [GarbageSetting], loopNames: [String], audio: Double,
    grammarRTF: Double
) {
    guard !garbageSettings.isEmpty else { return }
    let tuning = heard.filter(\.job.isTuning)
    let heldOut = heard.filter { !$0.job.isTuning }
    func share(_ count: Int, _ total: Int) -> String { "\(count)/\(total)" }
    print(
        """

        garbage paths (each a decode under the grammar with a GarbageModel; accepted: words, none of \
        them garbage). Near misses count among the clips that are not commands; "not in the grammar": \
        leaving out what the grammar says word for word (negative phrases, "never mind": the matcher's \
        to turn down); "heard right": commands the plain grammar heard word for word.
        | setting | false accepts (held out) | FA, not in the grammar | of them near misses | false rejects (held out) | FR, commands heard right | commands' words changed | commands on garbage: utterance / value | near misses on value garbage | false accepts (tuning) | false rejects (tuning) | extra RTF |
        |---|---|---|---|---|---|---|---|---|---|---|---|
        """)
    for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
        let held = garbageRates(heldOut, index)
        let tuned = garbageRates(tuning, index)
        let commands = heldOut.filter(\.job.isCommand)
        let heardRight = commands.filter { !$0.job.words.isEmpty && $0.transcript == $0.job.words }
        let unsayable = heldOut.filter { !$0.job.isCommand && !$0.job.canSay }
        let misses = heldOut.filter { $0.job.group.hasSuffix("near miss") }
        let changed = commands.filter {
            garbageAccepts($0, index) && $0.garbage[index].transcript != $0.transcript
        }.count
        let onUtterance = commands.filter { $0.garbage[index].kind == .utterance }.count
        let onValue = commands.filter { $0.garbage[index].kind == .value }.count
        let rtf = heard.reduce(0) { $0 + $1.garbage[index].seconds } / audio - grammarRTF
        print(
            "| \(setting.label) | \(percent(held.fa)) of \(held.others) | \(share(unsayable.filter { garbageAccepts($0, index) }.count, unsayable.count)) | \(share(misses.filter { garbageAccepts($0, index) }.count, misses.count)) | \(percent(held.fr)) of \(held.commands) | \(share(heardRight.filter { !garbageAccepts($0, index) }.count, heardRight.count)) | \(share(changed, commands.count)) | \(onUtterance) / \(onValue) | \(share(misses.filter { $0.garbage[index].kind == .value }.count, misses.count)) | \(percent(tuned.fa)) | \(percent(tuned.fr)) | \(format(rtf)) |"
        )
    }
    // Combined with a continuous measure: the garbage path's verdict, then the measure's
    // threshold (chosen on the tuning half so the two together reject at most 2% of its commands).
    let combinable =
        ["path score per frame"] + loopNames.map { "\($0): words' margin" }
        + garbageSettings.filter(\.loopOnly).map { "\($0.label): margin per frame" }
    print(
        """

        garbage path and a measure (threshold on the tuning half: the combination rejects at most 2% of its commands)
        | setting | measure | threshold | false accepts (held out) | false rejects (held out) |
        |---|---|---|---|---|
        """)
    for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
        for measure in combinable {
            let chosen = combinedThreshold(tuning, index, measure)
            let held = garbageRates(heldOut, index, measure: measure, threshold: chosen)
            print(
                "| \(setting.label) | \(measure) | \(format(chosen, 1)) | \(percent(held.fa)) of \(held.others) | \(percent(held.fr)) of \(held.commands) |"
            )
        }
    }
    print("\ngarbage paths held out by group (false accepts / false rejects):")
    let groups = Set(heard.map(\.job.group)).sorted()
    print("| setting | " + groups.joined(separator: " | ") + " |")
    print("|---|" + groups.map { _ in "---|" }.joined())
    for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
        let cells = groups.map { group -> String in
            let figures = garbageRates(heldOut.filter { $0.job.group == group }, index)
            return
                "\(percent(figures.fa)) of \(figures.others) / \(percent(figures.fr)) of \(figures.commands)"
        }
        print("| \(setting.label) | " + cells.joined(separator: " | ") + " |")
    }
    if ProcessInfo.processInfo.environment["VERBOSE"] != nil {
        for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
            print("\n\(setting.label), every clip heard differently from the plain grammar or wrongly:")
            for clip in heard.sorted(by: { $0.job.label < $1.job.label }) {
                let hearing = clip.garbage[index]
                let accepted = garbageAccepts(clip, index)
                guard accepted != clip.job.isCommand || hearing.transcript != clip.transcript else {
                    continue
                }
                print(
                    "  \(clip.job.isCommand ? "command" : "other") \(clip.job.isTuning ? "(tuning)" : "(held out)") \(clip.job.label): \"\(clip.transcript)\" → \"\(hearing.transcript)\"\(hearing.kind.map { " [\($0)]" } ?? "")"
                )
            }
        }
    }
}

/// What the app would do with each held-out clip under each setting: act rightly, act wrongly,
/// or not act, with the recognizer's transcript read by the app's matcher.
func reportEndToEnd(
    _ heard: [Outcome], matchers: [String: PhraseMatcher], settings garbageSettings: [GarbageSetting]
) async {
    let heldOut = heard.filter { !$0.job.isTuning }
    /// What the matcher makes of each transcript, by grammar and transcript.
    var matched: [String: PhraseTestSuite.Expectation] = [:]
    for clip in heard {
        guard let matcher = matchers[clip.job.grammar] else { continue }
        for transcript in [clip.transcript] + clip.garbage.map(\.transcript)
        where matched["\(clip.job.grammar)|\(transcript)"] == nil {
            matched["\(clip.job.grammar)|\(transcript)"] =
                transcript.isEmpty ? .noMatch : await matcher.outcome(of: transcript).0
        }
    }

    let matchedTranscripts = matched

    /// What the app would do with a clip: act rightly, act wrongly, or not act (`setting`: a garbage
    /// setting's index; `nil`: the plain grammar).
    enum Action { case right, wrong, none }
    func action(_ clip: Outcome, _ setting: Int?) -> Action {
        let transcript = setting.map { clip.garbage[$0].transcript } ?? clip.transcript
        let accepted = setting.map { garbageAccepts(clip, $0) } ?? !transcript.isEmpty
        guard accepted else { return .none }
        guard let expectation = clip.job.expectation else {
            return transcript == clip.job.words ? .right : .wrong
        }
        let got = matchedTranscripts["\(clip.job.grammar)|\(transcript)"] ?? .noMatch
        if got == .noMatch { return .none }
        return expectation.isMet(by: got) ? .right : .wrong
    }

    let endToEnd: [(label: String, index: Int?)] =
        [("plain grammar (no garbage path)", nil)]
        + garbageSettings.enumerated().filter { !$0.element.loopOnly }.map { ($0.element.label, $0.offset) }
    print(
        """

        end to end, held out: the recognizer, then the app's matcher (recordings under grammars of their own \
        transcripts: right when heard word for word). A near miss or other non-command acted on is a false accept.
        | setting | commands acted on rightly | commands acted on wrongly | commands not acted on | non-commands acted on | of them near misses |
        |---|---|---|---|---|---|
        """)
    for (label, index) in endToEnd {
        let commands = heldOut.filter(\.job.isCommand)
        let others = heldOut.filter { !$0.job.isCommand }
        let misses = others.filter { $0.job.group.hasSuffix("near miss") }
        let actions = commands.map { action($0, index) }
        print(
            "| \(label) | \(actions.filter { $0 == .right }.count)/\(commands.count) | \(actions.filter { $0 == .wrong }.count)/\(commands.count) | \(actions.filter { $0 == .none }.count)/\(commands.count) | \(others.filter { action($0, index) != .none }.count)/\(others.count) | \(misses.filter { action($0, index) != .none }.count)/\(misses.count) |"
        )
    }
}
