/// A garbage (filler) path in a command grammar: a loop of single-phone pseudo-words that any
/// sound can follow, weighted so that it wins only when no command fits the sound well enough.
///
/// A grammar forces every sound onto some command. With a garbage model, the graph the recognizer
/// searches (``SpeechGrammar/fsg``) also holds:
///
/// - a whole-utterance alternative: the start state enters a loop of phone-words with probability
///   ``utterance``, and each phone in the loop costs ``phone``. When the best path goes through it,
///   the utterance was not a command (``RecognitionResult/garbage`` is ``GarbageKind/utterance``,
///   and ``RecognitionResult/spokenWords`` is empty);
/// - optionally, the same loop as one more choice in every value slot (enum and entity names,
///   suggested text), entered with probability ``value``: "how busy is the louvre in travel
///   tracking", when the app knows no Louvre, can come out as "how busy is ~uh in travel
///   tracking" (a near miss: the command's shape with an unknown value; ``GarbageKind/value``)
///   rather than as "how busy is uluru …" (measured, it mostly does not: a close name still wins).
///
/// The probabilities are the rejection threshold: a larger ``utterance`` or ``phone`` rejects more.
/// They are written into the FSG (PocketSphinx applies its language weight `-lw` to them), and the
/// recognizer searches a grammar with a garbage model for its Viterbi path (`-bestpath no`; the
/// lattice's best path measured the same).
///
/// ``standard`` is what an app with no calibration of its own listens with (the models'
/// manifest's `garbage`, ``GarbagePath/commands``): on people's recordings it turned away about
/// two in five of the other clips a grammar alone acted on at the same bar, and few commands. It
/// does not catch a command of the right shape with a name the app does not know. What was measured, on people and on
/// eSpeak NG: `Benchmarks/Calibration/people/README.md` and `Benchmarks/Recognition/README.md`
/// ("A weighted garbage path in the FSG").
///
/// ```swift
/// let grammar = SpeechGrammar(forms, name: "travel", garbage: .standard)
/// let result = try recognizer.recognize(samples)
/// if result.garbage == .utterance { print("not a command") }
/// ```
public struct GarbageModel: Sendable, Hashable {
    /// The probability of entering the whole-utterance garbage loop from the grammar's start
    /// (below 1: the start's own arcs share the rest; 0: no whole-utterance loop).
    package var utterance: Double
    /// The probability of each phone in a garbage loop (every phone-word arc carries it; it need
    /// not sum to 1 over the phones: it is a penalty per phone).
    package var phone: Double
    /// The probability of the garbage loop in a value slot, shared with the slot's names (which
    /// share the rest); `nil`: no garbage inside values.
    package var value: Double?

    package init(utterance: Double, phone: Double, value: Double? = nil) {
        self.utterance = utterance
        self.phone = phone
        self.value = value
    }

    /// The setting chosen by `rejection-benchmark`: the strongest measured that lost no command
    /// the app acted on rightly without it, for about a sixth more decoding time (no value loops).
    /// Grammars have no garbage path unless given one.
    package static let standard = GarbageModel(utterance: 1e-2, phone: 3e-3)

    /// ``standard`` with a loop in every value slot, entered with probability 0.05, for near
    /// misses: "how busy is the louvre" is heard as a command with an unknown landmark, which the
    /// runner asks for. It costs: 4 of 80 eSpeak NG clips of TravelTracking commands with values
    /// had theirs taken by the loop (asked for instead of acted on), and `rejection-benchmark`
    /// found few near misses landing on value loops at 0.001 (see `Benchmarks/Recognition/README.md`,
    /// "Rejection"). At 0.01, the voice loop's test recording of the Louvre still heard Uluru.
    package static let withValues = GarbageModel(utterance: 1e-2, phone: 3e-3, value: 5e-2)

    /// The context-independent phones of the CMU US English model (its `mdef`, without SIL and
    /// the noise phones), one pseudo-word each.
    package static let phones = [
        "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH", "IH",
        "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH", "UH", "UW", "V",
        "W", "Y", "Z", "ZH",
    ]

    /// What garbage pseudo-words begin with: no English word or grammar word does.
    static let prefix = "~"

    /// The pseudo-word of `phone` ("AA" → "~aa").
    package static func word(for phone: String) -> String { prefix + phone.lowercased() }

    /// Every pseudo-word, one per phone.
    package static let words = phones.map(word(for:))

    /// The phone a pseudo-word stands for ("~aa" → "AA"), or `nil` for any other word.
    package static func phone(of word: String) -> String? {
        guard word.hasPrefix(prefix) else { return nil }
        let phone = word.dropFirst(prefix.count).uppercased()
        return phones.contains(phone) ? phone : nil
    }

    /// Whether `word` is a garbage pseudo-word (or a marker of a loop in a ``WordGraph``).
    package static func isGarbage(_ word: String) -> Bool { word.hasPrefix(prefix) }

    /// A decoy in place of a value ("~louver"), and in place of a command's first word
    /// ("~~sell"): what ``DecoyCheck`` calls them in the dictionary.
    static func valueDecoy(_ word: String) -> String { prefix + word }
    static func commandDecoy(_ word: String) -> String { prefix + prefix + word }

    /// The word a decoy stands for ("~~sell" → "sell"), or `nil` for any other word (phone-words
    /// included).
    package static func decoyWord(of word: String) -> String? {
        guard word.hasPrefix(prefix), phone(of: word) == nil, !isMarker(word) else { return nil }
        let plain = word.drop { String($0) == prefix }
        return plain.isEmpty ? nil : String(plain)
    }

    /// Whether `word` is a decoy in place of a command's own word: the utterance had a command's
    /// shape with a word the app does not know.
    package static func isCommandDecoy(_ word: String) -> Bool { word.hasPrefix(prefix + prefix) }

    /// The marker arcs a ``WordGraph`` carries where a loop goes; `fsg(name:garbage:)` expands
    /// each into its own loop of phone-words.
    package static let utteranceMarker = "~utterance"
    package static let valueMarker = "~value"

    package static func isMarker(_ word: String) -> Bool {
        word == utteranceMarker || word == valueMarker || word == WordGraph.joinMarker
    }
}

/// Which part of an utterance the garbage path took.
package enum GarbageKind: Sendable, Hashable {
    /// The whole utterance: not a command.
    case utterance
    /// One or more values inside a command: the command's shape with a value the app does not
    /// know (a near miss).
    case value
    /// The command's first word, replaced by a word the app does not know (``DecoyCheck``): the
    /// command's shape with another verb ("sell four tickets for the colosseum"), not a command.
    case commandWord
}

/// The garbage paths a command grammar can have, by the names `listen --garbage`, `calibrate` and
/// the models' manifest (`garbage:`) use.
public enum GarbagePath: String, Sendable, Hashable, CaseIterable {
    /// None: every sound is heard as the command it fits best.
    case off
    /// ``GarbageModel/standard``: a sound that fits no command better than a loop of any phones is
    /// heard as garbage.
    case commands
    /// ``GarbageModel/withValues``: also a name the app does not know, inside a command.
    case values

    /// The grammar's garbage model; `nil` for ``off``.
    package var model: GarbageModel? {
        switch self {
        case .off: nil
        case .commands: .standard
        case .values: .withValues
        }
    }
}
