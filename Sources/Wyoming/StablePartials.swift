/// Which words of an utterance's partial transcripts can be sent before it ends
/// (`transcript-chunk`): those that every partial of the last ``window`` samples of audio begins
/// with. A word is sent once; what the search later changes of a word already sent is not taken
/// back, and from then on nothing more is sent until the whole `transcript`, which is what counts.
struct StablePartials {
    /// How many 16 kHz samples of audio a word must hold for (0.3 s).
    let window: Int
    /// The words sent so far.
    private(set) var sent: [String] = []
    /// Partials heard, oldest first: each with how many samples of audio it came after.
    private var history: [(samples: Int, words: [String])] = []
    /// Whether the search changed a word already sent.
    private var diverged = false

    init(window: Int = 4_800) {
        self.window = window
    }

    /// The words that became stable with `words`, the partial after `samples` of audio; none
    /// while nothing new has held long enough.
    mutating func update(_ words: [String], after samples: Int) -> [String] {
        history.append((samples, words))
        // Keep the newest partial at least a window old, as the start of the span a word must
        // hold over, and everything after it.
        if let anchor = history.lastIndex(where: { $0.samples <= samples - window }) {
            history.removeFirst(anchor)
        } else {
            return []
        }
        var stable = history[0].words
        for partial in history.dropFirst() {
            stable = Array(zip(stable, partial.words).prefix { $0 == $1 }.map(\.0))
        }
        return take(stable)
    }

    /// What of the utterance's final words was not sent yet, when they begin with all that was.
    mutating func finish(_ words: [String]) -> [String] {
        take(words)
    }

    private mutating func take(_ words: [String]) -> [String] {
        guard !diverged, words.count > sent.count else { return [] }
        guard words.starts(with: sent) else {
            diverged = true
            return []
        }
        let new = Array(words[sent.count...])
        sent += new
        return new
    }

    /// `words` as the text of a `transcript-chunk`: after words sent before them, with a space
    /// first, so that the chunks joined make the transcript.
    func chunkText(_ words: [String]) -> String {
        let text = words.joined(separator: " ")
        return sent.count > words.count ? " " + text : text
    }
}
