import PhraseMatching
import Testing
import VoiceLoop
import VoiceTestSupport

/// The gate that tells a person speaking over a reply from what is left of the reply's echo
/// (`BargeIn.isPerson`), on chunk energies shaped as the loudspeaker rig records them: an
/// echo the canceller takes 20 dB out of, a person 6 dB quieter than it whose voice the
/// canceller's residual suppression mostly takes too, the reply turned down 40 dB, and the
/// room's noise (0.5), which the canceller lets through whole.
@Suite("Barge-in gate")
struct BargeInGateTests {
    typealias Chunk = (recorded: Double, heard: Double)

    /// Ten chunks of the echo alone (the canceller lets 1% through), then `speech`.
    static func overEcho(_ speech: [Chunk]) -> [Chunk] {
        Array(repeating: (100, 1), count: 10) + speech
    }

    /// Decided on the second chunk of speech; heard turned down from the sixth.
    static let turnDown = BargeIn.TurnDown(decided: 11, heardFrom: 16)

    /// What is left of the echo started an utterance (two chunks let through at −10 dB, which
    /// turned the reply down), went on at full level until the turn-down was heard, then fell
    /// with it to the room's noise.
    static let echoAlone = overEcho(
        Array(repeating: (100, 10), count: 2) + Array(repeating: (100, 5), count: 4)
            + Array(repeating: (0.51, 0.5), count: 10))

    /// A person 6 dB under the echo: the canceller lets little of them through while the reply
    /// is loud, most once it is down; five chunks of speech, then the silence that ends it.
    static let personUnderALouderEcho = overEcho(
        Array(repeating: (125, 8), count: 6) + Array(repeating: (25.5, 22), count: 5)
            + Array(repeating: (0.51, 0.5), count: 5))

    /// Words that came after the turn-down: what set it off (a satellite's chime, let through at
    /// −17 dB against the words to come) and the echo until it was heard turned down, then a
    /// person's words, then the silence that ends them.
    static let afterAChime = overEcho(
        Array(repeating: (100, 2), count: 6) + Array(repeating: (25.5, 22), count: 5)
            + Array(repeating: (0.51, 0.5), count: 5))

    @Test func anEchoThatFallsWithTheTurnDownIsNotAPerson() {
        let gate = BargeIn.isPerson(
            Self.echoAlone, window: 10..<26, speechEnd: 21, turnDown: Self.turnDown)
        #expect(!gate.isPerson)
    }

    /// The echo of a reply the canceller has fallen out of step with (a quarter of it let
    /// through): over the whole utterance, with the room's noise after the turn-down, more than
    /// `echoOnly`; but it fell with the reply.
    @Test func anEchoTheCancellerLetsThroughIsToldByItsFall() {
        let chunks = Self.overEcho(
            Array(repeating: (100, 25), count: 6) + Array(repeating: (0.51, 0.5), count: 10))
        let gate = BargeIn.isPerson(chunks, window: 10..<26, speechEnd: 21, turnDown: Self.turnDown)
        #expect(gate.passed > BargeIn.echoOnly)
        #expect(!gate.isPerson)
    }

    @Test func aPersonUnderALouderEchoIsTakenOnceTheReplyIsDown() {
        let chunks = Self.personUnderALouderEcho
        // Over the whole utterance the canceller let too little through (about −7 dB)...
        let alone = BargeIn.isPerson(chunks, window: 10..<26, speechEnd: 21, turnDown: nil)
        #expect(!alone.isPerson)
        #expect(alone.passed < BargeIn.echoOnly)
        // ...but their voice did not fall with the reply, and came through once it was down.
        let turnedDown = BargeIn.isPerson(
            chunks, window: 10..<26, speechEnd: 21, turnDown: Self.turnDown)
        #expect(turnedDown.isPerson)
        #expect((turnedDown.passedAfterTurnDown ?? -100) > BargeIn.echoOnly)
        #expect((turnedDown.fell ?? -100) > BargeIn.fallOfAnEcho)
    }

    @Test func speechOverBeforeTheTurnDownIsHeardIsJudgedOnItsWhole() {
        // The person's word ended (speech until chunk 16) as the turn-down was first heard.
        let gate = BargeIn.isPerson(
            Self.personUnderALouderEcho, window: 10..<21, speechEnd: 16, turnDown: Self.turnDown)
        #expect(!gate.isPerson)
    }

    /// A turn-down heard after the speech ended, or decided past the chunks there are (a
    /// reader far behind), leaves the whole utterance to judge.
    @Test func aTurnDownPastTheSpeechLeavesTheWhole() {
        let chunks = Self.personUnderALouderEcho
        let whole = BargeIn.isPerson(chunks, window: 10..<26, speechEnd: 21, turnDown: nil)
        for turnDown in [
            BargeIn.TurnDown(decided: 11, heardFrom: 40),
            BargeIn.TurnDown(decided: 30, heardFrom: 45),
        ] {
            #expect(
                BargeIn.isPerson(chunks, window: 10..<26, speechEnd: 21, turnDown: turnDown) == whole)
            #expect(
                BargeIn.isPerson(chunks, window: 10..<26, speechEnd: 3, turnDown: turnDown).fell == nil)
        }
    }

    /// What was played as each chunk was recorded: the reply (its loudest chunk 1e9), turned
    /// down 40 dB from chunk 14 on.
    static let turnedDownAt14 =
        [1e9, 4e8, 0, 7e8, 1e9, 2e8, 9e8, 6e8, 8e8, 1e9, 5e8, 3e8, 7e8, 1e8]
        + Array(repeating: 5e4, count: 6)

    /// The turn-down is heard two chunks after what was played went down and stayed down: not at
    /// a pause of the reply's own (chunk 2), nor where it was only softer (chunk 13).
    @Test func theTurnDownIsHeardWhereWhatWasPlayedStaysDown() {
        #expect(BargeIn.turnDownHeard(played: Self.turnedDownAt14, decided: 11) == 16)
        #expect(BargeIn.turnDownHeard(played: Self.turnedDownAt14, decided: 1) == 16)
    }

    /// A reply still loud in the last chunk read has not been heard turned down: past them all.
    @Test func aReplyNotYetTurnedDownIsHeardPastTheChunksRead() {
        let played = Array(Self.turnedDownAt14.prefix(14))
        #expect(BargeIn.turnDownHeard(played: played, decided: 11) == 16)
        #expect(BargeIn.turnDownHeard(played: played + [1e9], decided: 11) == 17)
        let gate = BargeIn.isPerson(
            Self.personUnderALouderEcho, window: 10..<26, speechEnd: 21,
            turnDown: BargeIn.TurnDown(decided: 11, heardFrom: 27))
        #expect(gate.fell == nil)
    }

    /// Heard again from the chunk before the turn-down was heard, where 300 ms of speech follow
    /// it and it is past the utterance's start.
    @Test func wordsAreHeardAgainFromJustBeforeTheTurnDown() {
        #expect(BargeIn.heardAgainFrom(turnDown: Self.turnDown, start: 10, speechEnd: 21) == 15)
        #expect(BargeIn.heardAgainFrom(turnDown: Self.turnDown, start: 10, speechEnd: 18) == 15)
        #expect(BargeIn.heardAgainFrom(turnDown: Self.turnDown, start: 10, speechEnd: 17) == nil)
        #expect(BargeIn.heardAgainFrom(turnDown: Self.turnDown, start: 15, speechEnd: 21) == nil)
    }

    /// Words that came after the turn-down (``afterAChime``) are told from a person's who spoke
    /// over the reply, who comes through within a few dB of the rest before it.
    @Test func wordsAfterTheTurnDownAreToldFromWordsOverTheReply() {
        #expect(
            BargeIn.wordsCameAfter(turnDown: Self.turnDown, Self.afterAChime, start: 10, speechEnd: 21))
        #expect(
            !BargeIn.wordsCameAfter(
                turnDown: Self.turnDown, Self.personUnderALouderEcho, start: 10, speechEnd: 21))
        // Only where the words are heard again: not from an utterance that starts after the turn-down.
        #expect(
            !BargeIn.wordsCameAfter(turnDown: Self.turnDown, Self.afterAChime, start: 15, speechEnd: 21))
    }

    /// A command over a question is heard again from the turn-down where the words came after
    /// it; else, where the turn-down came late in the utterance (five chunks or more after its
    /// start: here a chime, then the echo's remains, started it), from two chunks before the
    /// decision where the words came after that, then from the turn-down; not where the person's
    /// voice came through before that, nor where the turn-down was not late.
    @Test func aCommandOverAQuestionIsHeardAgainWithoutWhatCameBeforeTheWords() {
        #expect(
            BargeIn.heardAgainOverAQuestionFrom(
                turnDown: Self.turnDown, Self.afterAChime, start: 10, speechEnd: 21) == [15])
        let chimeThenEcho: [Chunk] =
            Array(repeating: (100, 1), count: 4) + Array(repeating: (100, 2), count: 2)
            + Array(repeating: (100, 1), count: 4) + Array(repeating: (125, 8), count: 6)
            + Array(repeating: (25.5, 22), count: 5) + Array(repeating: (0.51, 0.5), count: 5)
        #expect(
            BargeIn.heardAgainOverAQuestionFrom(
                turnDown: Self.turnDown, chimeThenEcho, start: 4, speechEnd: 21) == [9, 15])
        #expect(
            BargeIn.heardAgainOverAQuestionFrom(
                turnDown: Self.turnDown, chimeThenEcho, start: 7, speechEnd: 21) == [])
        #expect(
            BargeIn.heardAgainOverAQuestionFrom(
                turnDown: BargeIn.TurnDown(decided: 16, heardFrom: 20), Self.personUnderALouderEcho,
                start: 10, speechEnd: 21) == [])
    }

    /// With nothing played up to the decision, nothing tells where the turn-down was heard.
    @Test func nothingPlayedTellsNothing() {
        #expect(BargeIn.turnDownHeard(played: Array(repeating: 0, count: 20), decided: 11) == nil)
        #expect(BargeIn.turnDownHeard(played: [1e9, 1e9], decided: 5) == nil)
    }

    @Test func aPersonTheCancellerLetsThroughIsTakenWithoutATurnDown() {
        let chunks = Self.overEcho(
            Array(repeating: (200, 90), count: 5) + Array(repeating: (100, 1), count: 5))
        let gate = BargeIn.isPerson(chunks, window: 10..<20, speechEnd: 15, turnDown: nil)
        #expect(gate.isPerson)
    }

    /// A person's command over a reply runs at the bar over a reply; one only at the app's own
    /// bar runs when heard again from the turn-down as the same intent with the same values
    /// (other words may say it), never on one hearing.
    @Test func aCommandUnderTheBarOverAReplyRunsWhenHeardTheSameAgain() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        func heard(_ text: String, _ clears: VoiceChannel.HeardCommand.Clears) async throws
            -> VoiceChannel.HeardCommand
        {
            .init(match: try #require(await matcher.match(text).best, "\(text)"), clears: clears)
        }
        let map = try await heard("navigate to the map in travel tracking", .appBar)
        let mapAgain = try await heard("show world map in travel tracking", .neither)
        let collections = try await heard("navigate to my collections in travel tracking", .neither)
        #expect(VoiceChannel.HeardCommand.runs(map, again: mapAgain))
        #expect(!VoiceChannel.HeardCommand.runs(map, again: collections))
        #expect(!VoiceChannel.HeardCommand.runs(map, again: nil))
        let sure = try await heard("navigate to the map in travel tracking", .barOverReply)
        #expect(VoiceChannel.HeardCommand.runs(sure, again: nil))
        let unsure = try await heard("navigate to the map in travel tracking", .neither)
        #expect(!VoiceChannel.HeardCommand.runs(unsure, again: mapAgain))
        #expect(!VoiceChannel.HeardCommand.runs(nil, again: mapAgain))
    }

    /// A person 6 dB under the echo, whose voice the canceller keeps whole: 7 dB down, which an
    /// utterance is refused at and the wake word is taken at. On the loudspeaker rig beside two
    /// busy loops a person's "hey mycroft" over a question came through 6.1 dB down, with the
    /// reply turned down at its second chunk but not heard down before the word was: refused.
    @Test func aWakeWordIsTakenWhereAnUtteranceIsNot() {
        let speech = Self.overEcho(Array(repeating: (125, 25), count: 8))
        let utterance = BargeIn.isPerson(speech, window: 10..<18, speechEnd: 18, turnDown: nil)
        #expect(!utterance.isPerson)
        #expect(BargeIn.wakeWordIsAPersons(speech, window: 10..<18, turnDown: nil).isPerson)
    }

    /// The reply's own voice saying the wake word comes through the canceller 16 dB down or more:
    /// refused, and so is an echo heard only once the reply is down (the room's noise, which the
    /// canceller lets through whole, after a fall of 40 dB).
    @Test func theRepliesOwnWakeWordIsRefused() {
        let echo = Array(repeating: (100.0, 1.5), count: 10)
        #expect(!BargeIn.wakeWordIsAPersons(echo, window: 0..<10, turnDown: nil).isPerson)
        let downBefore = Array(repeating: (100.0, 1.0), count: 10) + Array(repeating: (0.01, 0.01), count: 12)
        let turnDown = BargeIn.TurnDown(decided: 9, heardFrom: 12)
        #expect(!BargeIn.wakeWordIsAPersons(downBefore, window: 12..<22, turnDown: turnDown).isPerson)
    }
}
