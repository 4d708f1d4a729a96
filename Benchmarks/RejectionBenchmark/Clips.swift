// The rejection benchmark's clips: what each is, and the near misses spoken as speech that is no
// command.

import PhraseMatching
import VoiceEvaluation
import VoiceRecognition

/// One clip to decode, and what it is.
struct Job: Sendable {
    let label: String
    let grammar: String
    /// A command (or real speech under a grammar of its own transcript), which should be accepted.
    let isCommand: Bool
    let group: String
    /// The tuning half (`true`) or the held-out half.
    let isTuning: Bool
    let hearsDictation: Bool
    let audio: @Sendable () throws -> [Int16]
    /// Whether the grammar can say the sentence word for word: commands that do not lean on the
    /// matcher's tolerance, and sentences that are not commands but are in the grammar (negative
    /// phrases, "never mind"), which the matcher, not the recognizer, turns down.
    var canSay = false
    /// The words said, as the grammar spells them ("" when not known).
    var words = ""
    /// What the matcher should make of the sentence (`nil` for recordings under grammars of their
    /// own transcripts: those are right when heard word for word).
    var expectation: PhraseTestSuite.Expectation?
}

/// Near misses: a command's shape with a value the app does not know, or a verb it has none for.
/// Spoken like the phrase tests, they are not commands (they should be rejected, or heard as a
/// command with an unknown value).
let nearMisses: [String: [String]] = [
    "travel-tracking": [
        "find six tickets for the louvre", "how busy is the louvre in travel tracking",
        "how crowded is big ben right now", "find two tickets for the alhambra in travel tracking",
        "navigate to settings in travel tracking", "check the crowd level for mount everest",
        "buy tickets for buckingham palace in travel tracking",
        "add the kremlin to my favorites in travel tracking", "how busy is times square in travel tracking",
        "find three tickets for yellowstone",
    ],
    "library": [
        "open the book harry potter in library", "buy two copies of harry potter",
        "show me the poetry shelf in my library", "read the great gatsby in my library",
        "open the cookbook shelf in library", "buy moby dick in my library",
    ],
]

/// The tuning half, split as `calibrate` splits its clips.
func isTuning(_ key: String) -> Bool { Calibration.isTuning(key) }

/// One garbage path setting to measure.
struct GarbageSetting: Sendable {
    let label: String
    let model: GarbageModel
    /// Searched for the Viterbi path (`-bestpath no`) rather than the lattice's best path.
    let viterbi: Bool
    /// The garbage loop alone, without the commands: a reference score, not a verdict.
    var loopOnly = false
}
