import CPocketSphinx
import Foundation
import VoiceAudio

extension SpeechRecognizer {
    /// Seconds the voice loop waits for speech to start before it listens anew
    /// (``listen(timeout:read:)``'s `timeout`); `evaluate` hears recordings with the same, so
    /// that both hear a recording alike.
    public static let utteranceTimeout = 10.0

    /// Listens to a stream until someone has spoken and stopped: the end of speech comes from
    /// ``Configuration/voiceActivity`` (WebRTC's detector by default, PocketSphinx's when `nil`)
    /// after ``Configuration/trailingSilence`` (half a second by default). Sounds with no words
    /// in them (a click, a breath) do not end it. Returns `nil` when nobody spoke before
    /// `timeout`. While the recognizer is still learning the channel
    /// (the first five seconds of speech of a stream), each utterance is heard with the channel
    /// learnt from its own sound (``Configuration/hearsTwiceWhileLearning``,
    /// ``Configuration/learnsChannelBeforeHearing``).
    ///
    /// ```swift
    /// let microphone = try PulseAudioSource()
    /// let result = try recognizer.listen(timeout: 10) { try microphone.read(1_600) }
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds to wait for speech to start.
    ///   - read: Gives the next samples (16 kHz mono), or `nil` at the end of the stream.
    package func listen(
        timeout: Double, read: () throws(SpeechError) -> [Int16]?
    ) throws(SpeechError) -> RecognitionResult? {
        try listen(timeout: timeout, read: read, speechStarted: { _ in })
    }

    /// ``listen(timeout:read:)``, also telling `speechStarted` how many samples had been read
    /// when the detector heard speech begin (again after a false start). With `wordlessSpeech`,
    /// speech that lasted at least that many seconds ends the listening even when the grammar
    /// found no words in it: a recording wants what was said, whatever it was.
    package func listen(
        timeout: Double, read: () throws(SpeechError) -> [Int16]?, speechStarted: (Int) -> Void,
        wordlessSpeech: Double? = nil
    ) throws(SpeechError) -> RecognitionResult? {
        let hearsTwice =
            settings.hearsTwiceWhileLearning
            && Self.cepstralState(of: decoder).frames < Self.settledChannelFrames
        // While the channel is young and a detector of its own says where speech is, nothing is
        // decoded while someone speaks: at each pause the channel is learnt from the sound so far
        // (without decoding it), and the decoder hears the utterance from its start with it, and
        // the silence as it arrives. Speech again after the pause is heard anew at the next one.
        // One decoding instead of two for a command said in one breath.
        let learnsFirst = hearsTwice && voiceActivity != nil && settings.learnsChannelBeforeHearing
        // Whether the decoder has an utterance open and hears the audio as it arrives.
        var hearing = !learnsFirst
        if hearing {
            guard ps_start_utt(decoder) == 0 else {
                throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
            }
        }
        var heardSpeech = false
        var samplesRead = 0
        var speechStart = 0
        // Where the detector last heard the speech end while the words so far could not be a
        // whole sentence; `nil` while speaking.
        var pauseStart: Int?
        // The utterance's audio, for a second hearing and the decoy check: what the decoder heard
        // of it with a detector of its own; otherwise from a second before speech began.
        var utterance: [Int16] = []
        let keepsAudio =
            hearsTwice
            || (settings.decoyCheck != nil || settings.hearsAgainAfterLeadingSound && voiceActivity != nil)
                && grammar?.isCommands == true
        // With a detector of its own: the audio not yet heard by the decoder while waiting for
        // speech: its last ``VoiceActivityDetector/leadIn`` samples.
        var waiting: [Int16] = []
        // With a detector that marks where a voice far louder than what came before began
        // (``VoiceActivityDetector/foregroundStart``): the last seconds of audio as read, before
        // the front end, to hear the utterance again from there.
        var lately: [Int16] = []
        let marksForeground = voiceActivity?.settings.foregroundRise != nil && grammar?.isCommands == true
        /// The audio as read from a little before the louder voice began, if one did in this
        /// utterance, more than a quarter second after its start.
        func foreground() -> [Int16]? {
            guard marksForeground, let detector = voiceActivity, let start = detector.foregroundStart,
                start - detector.speechStart > AudioFormat.recognizerSampleRate / 4
            else { return nil }
            return Array(lately.suffix(detector.position - start + detector.leadIn))
        }
        // With `learnsFirst`: the channel before this utterance.
        let channelBefore = Self.cepstralState(of: decoder)
        // How much of the utterance there was when the hearing began.
        var heardFrom = 0
        /// Learns the channel from the utterance so far and starts hearing it with that.
        func startHearing() throws(SpeechError) {
            try learnChannel(from: utterance, after: channelBefore)
            guard ps_start_utt(decoder) == 0 else {
                throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
            }
            try process(utterance[...])
            hearing = true
            heardFrom = utterance.count
        }
        /// Ends the hearing: the channel keeps what the whole utterance taught it, once. After a
        /// wait for more words that did not come, the utterance is heard again with the silence
        /// of the wait in the channel, as a second hearing of it would (one command in 33 of
        /// SmartHome's speaker was lost without).
        func endHearing() throws(SpeechError) {
            if utterance.count > heardFrom {
                forgetHearing()
                try startHearing()
            }
            guard ps_end_utt(decoder) == 0 else {
                throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
            }
            hearing = false
            try learnChannel(from: utterance, after: channelBefore)
        }
        /// Forgets a hearing of a pause that the speaker went on after, or of no words (a click,
        /// a breath): the channel is as it was before the utterance.
        func forgetHearing() {
            if hearing { _ = ps_end_utt(decoder) }
            restoreCepstralState(channelBefore)
            hearing = false
        }
        /// Whether the speech just ended is long enough to count without words.
        func isLongEnough() -> Bool {
            guard let wordlessSpeech else { return false }
            // The detector reports the end `trailingSilence` after the speech (the first time it
            // did, when the end of speech waited for the rest of a command).
            let seconds =
                Double((pauseStart ?? samplesRead) - speechStart) / Double(AudioFormat.recognizerSampleRate)
            return seconds - settings.trailingSilence >= wordlessSpeech
        }
        while let raw = try read() {
            let chunk = frontEnd?.process(raw) ?? raw
            guard !chunk.isEmpty else { continue }
            samplesRead += chunk.count
            if keepsAudio && voiceActivity == nil {
                utterance += chunk
                let second = AudioFormat.recognizerSampleRate
                if !heardSpeech && utterance.count > second {
                    utterance.removeFirst(utterance.count - second)
                }
            }
            var inSpeech: Bool
            if let detector = voiceActivity {
                // The detector decides; the decoder hears the utterance from a little before
                // the detector heard it start, and nothing of the quiet before.
                detector.process(voiceActivityFrontEnd?.process(raw) ?? chunk, before: raw)
                inSpeech = detector.inSpeech
                if marksForeground {
                    lately += raw
                    let kept = 12 * AudioFormat.recognizerSampleRate
                    if lately.count > kept + 16_000 { lately.removeFirst(lately.count - kept) }
                }
                if heardSpeech || inSpeech {
                    // A second hearing hears what the first heard, and nothing before it.
                    let fed = heardSpeech ? chunk : waiting + chunk
                    // While a hearing learnt first waits for the rest of a command, the silence is
                    // not decoded: the hearing is heard again with it if nothing more is said,
                    // and dropped if something is.
                    if hearing && !(learnsFirst && pauseStart != nil) { try process(fed[...]) }
                    if keepsAudio { utterance = heardSpeech ? utterance + fed : fed }
                    waiting = []
                } else {
                    waiting += chunk
                    if waiting.count > detector.leadIn {
                        waiting.removeFirst(waiting.count - detector.leadIn)
                    }
                }
            } else {
                try process(chunk[...])
                inSpeech = ps_get_in_speech(decoder) != 0
            }
            if inSpeech && !heardSpeech {
                heardSpeech = true
                speechStart = samplesRead
                speechStarted(samplesRead)
            }
            // Speech that has gone on past the longest utterance ends here, as if it had paused.
            let overlong =
                heardSpeech
                && settings.longestUtterance.map {
                    Double(samplesRead - speechStart) >= $0 * Double(AudioFormat.recognizerSampleRate)
                } ?? false
            if overlong { inSpeech = false }
            if inSpeech { pauseStart = nil }
            if learnsFirst && hearing && inSpeech { forgetHearing() }
            if !hearing && heardSpeech && !inSpeech { try startHearing() }
            if heardSpeech && !inSpeech && !overlong
                && waitsForTheRest(pausedSince: &pauseStart, samplesRead: samplesRead)
            {
                continue
            }
            if heardSpeech && !inSpeech && !hasPartialWords() && !isLongEnough() {
                // A click, a breath, or the detector starting before it has learnt the noise
                // floor: no words so far, so the utterance goes on. Ending it here and starting
                // another lost the next command (measured on a live microphone).
                heardSpeech = false
                if learnsFirst {
                    forgetHearing()
                } else if voiceActivity != nil {
                    // This detector keeps what it learnt across utterances; the decoder forgets
                    // the noise it heard, which would otherwise lead the next command.
                    _ = ps_end_utt(decoder)
                    guard ps_start_utt(decoder) == 0 else {
                        throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
                    }
                }
            }
            if heardSpeech && !inSpeech {
                let result: RecognitionResult
                if learnsFirst {
                    try endHearing()
                    result = currentResult()
                } else {
                    guard ps_end_utt(decoder) == 0 else {
                        throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
                    }
                    result = try learnChannel(heard: currentResult(), audio: hearsTwice ? utterance : nil)
                }
                // Talk that reached no command may still end in one said over it.
                let marked = foreground()
                let counts = !result.spokenWords.isEmpty || isLongEnough()
                if counts || marked != nil {
                    let heard = try checked(
                        result, samples: utterance, startsWithFrames: voiceActivity != nil, foreground: marked
                    )
                    if counts || !heard.spokenWords.isEmpty { return heard }
                }
                // A click or a breath, or the detector starting before it has learnt the noise
                // floor: no words, so keep listening.
                heardSpeech = false
                if learnsFirst {
                    forgetHearing()
                } else {
                    guard ps_start_utt(decoder) == 0 else {
                        throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
                    }
                }
            }
            if !heardSpeech && Double(samplesRead) / Double(AudioFormat.recognizerSampleRate) > timeout {
                if hearing { _ = ps_end_utt(decoder) }
                return nil
            }
        }
        let result: RecognitionResult
        if learnsFirst {
            guard heardSpeech else {
                if hearing { _ = ps_end_utt(decoder) }
                return nil
            }
            // The stream ended while still speaking.
            if !hearing { try startHearing() }
            try endHearing()
            result = currentResult()
        } else {
            guard ps_end_utt(decoder) == 0 else {
                throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
            }
            guard heardSpeech else { return nil }
            result = try learnChannel(heard: currentResult(), audio: hearsTwice ? utterance : nil)
        }
        // The stream ended while waiting for the rest of a command that never came: nothing.
        if pauseStart != nil && result.spokenWords.isEmpty { return nil }
        return try checked(
            result, samples: utterance, startsWithFrames: voiceActivity != nil, foreground: foreground())
    }

    /// How many frames of speech (10 ms each) the cepstral mean must rest on before one hearing
    /// is enough: PocketSphinx's own window (`CMN_WIN`), five seconds of speech.
    static let settledChannelFrames: Int32 = 500

    /// Brings the channel estimate up to date with the utterance just heard and, when `audio` is
    /// given, hears that audio again with it, and returns what the second hearing heard.
    ///
    /// The decoder hears an utterance with the cepstral mean it had when the utterance began.
    /// A fresh decoder has only the acoustic model's mean, far from any microphone's, so the
    /// first seconds of a stream, and every clip of an evaluation, are heard through the wrong
    /// channel; hearing the utterance again with the mean learnt from it mends that (what it
    /// gains on people's recordings: `Benchmarks/Recognition/README.md`, "Hearing twice").
    private func learnChannel(heard first: RecognitionResult, audio: [Int16]?) throws(SpeechError)
        -> RecognitionResult
    {
        vi_update_cepstral_mean(decoder)
        guard let audio else { return first }
        // The second hearing adds the same frames again: keep the estimate as one hearing left it.
        return try heardAgain(audio)
    }

    /// Puts the channel estimate back to `channel` and teaches it `audio` without decoding it,
    /// as a hearing of that audio would have (the decoder's own front end makes the cepstra),
    /// for a few percent of a decoding's cost.
    func learnChannel(from audio: [Int16], after channel: CepstralState) throws(SpeechError) {
        restoreCepstralState(channel)
        let learnt = audio.withUnsafeBufferPointer {
            vi_learn_cepstral_mean(decoder, $0.baseAddress, $0.count)
        }
        guard learnt >= 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx's front end could not read the utterance")
        }
    }

    /// Whether the end of speech just reported should wait for more: the words so far are not a
    /// whole sentence of the grammar, or they are a command that the grammar lets go on ("turn on
    /// the lights" … "in the kitchen"), and the silence since the detector first reported the end of
    /// them is still under ``Configuration/maximumSilence``. Words after which nothing can follow,
    /// or nothing that says more (``SpeechGrammar/reading(ofHeard:)``), end the utterance at
    /// ``Configuration/trailingSilence``.
    private func waitsForTheRest(pausedSince pauseStart: inout Int?, samplesRead: Int) -> Bool {
        guard let grammar, let maximum = settings.maximumSilence, maximum > settings.trailingSilence,
            hasPartialWords()
        else { return false }
        let start = pauseStart ?? samplesRead
        let silence =
            settings.trailingSilence + Double(samplesRead - start) / Double(AudioFormat.recognizerSampleRate)
        guard silence < maximum else { return false }
        // Asked once a pause; the words heard before it do not change while it lasts.
        if pauseStart == nil {
            let reading = grammar.reading(ofHeard: currentResult().text)
            // An answer ("archive", "the second") is short and said at once: only commands wait
            // for what may follow.
            let waitsForMore = settings.waitsForContinuation && grammar.isCommands && reading.canGoOn
            guard !reading.isWhole || waitsForMore else { return false }
            pauseStart = samplesRead
        }
        return true
    }

    /// Whether the utterance so far has a hypothesis with words in it.
    private func hasPartialWords() -> Bool {
        var score: Int32 = 0
        guard let hypothesis = ps_get_hyp(decoder, &score) else { return false }
        return hypothesis.pointee != 0
    }
}
