/// Pronunciations for words the dictionary lacks, from eSpeak NG's phonemes mapped to the CMU
/// phone set PocketSphinx uses: "machu" → "M AE CH UW".

import VoiceAudio
import VoiceSynthesis

package enum PronunciationGuesser {
    /// eSpeak NG's English phoneme names → CMU phones.
    static let phoneMap: [String: [String]] = [
        // Vowels and diphthongs.
        "a": ["AE"], "aa": ["AE"], "a#": ["AH"], "A:": ["AA"], "A@": ["AA", "R"], "0": ["AA"], "@": ["AH"],
        "@2": ["AH"], "@5": ["AH"], "@L": ["AH", "L"], "3": ["ER"], "3:": ["ER"], "V": ["AH"], "E": ["EH"],
        "e@": ["EH", "R"], "eI": ["EY"], "I": ["IH"], "I#": ["IH"], "I2": ["IH"], "i": ["IY"], "i:": ["IY"],
        "i@": ["IY", "R"], "i@3": ["IY", "R"], "O": ["AO"], "O:": ["AO"], "O@": ["AO", "R"],
        "o@": ["AO", "R"],
        "OI": ["OY"], "oU": ["OW"], "o": ["OW"], "U": ["UH"], "U@": ["UH", "R"], "u": ["UW"], "u:": ["UW"],
        "aI": ["AY"], "aI@": ["AY", "ER"], "aI3": ["AY", "ER"], "aU": ["AW"], "aU@": ["AW", "ER"],
        "e": ["EH"],
        "IR": ["IH", "R"], "VR": ["AH", "R"], "@r": ["ER"],
        // Consonants.
        "p": ["P"], "b": ["B"], "t": ["T"], "t#": ["T"], "d": ["D"], "d#": ["D"], "k": ["K"], "g": ["G"],
        "f": ["F"], "v": ["V"], "T": ["TH"], "D": ["DH"], "s": ["S"], "z": ["Z"], "S": ["SH"], "Z": ["ZH"],
        "h": ["HH"], "m": ["M"], "n": ["N"], "n-": ["N"], "N": ["NG"], "l": ["L"], "l/2": ["L"], "r": ["R"],
        "r-": ["R"], "w": ["W"], "j": ["Y"], "tS": ["CH"], "dZ": ["JH"], "x": ["K"], "C": ["HH"], "z#": ["Z"],
    ]

    /// The CMU phones for `word`, space-separated.
    ///
    /// - Throws: ``SpeechError`` when eSpeak NG is not available or gives nothing usable.
    package static func phones(for word: String) throws(SpeechError) -> String {
        let engine = try ESpeakEngine.shared()
        let raw = try engine.exclusively { () throws(SpeechError) -> String in
            try engine.selectVoice("en-us")
            return engine.phonemes(of: word)
        }
        let phones = cmuPhones(fromESpeak: raw)
        guard !phones.isEmpty else {
            throw SpeechError(
                .invalidInput, "no pronunciation could be guessed for \"\(word)\" (eSpeak NG gave \"\(raw)\")"
            )
        }
        return phones.joined(separator: " ")
    }

    /// Maps eSpeak's "m_'a_tS_u:" to ["M", "AE", "CH", "UW"]: stress marks dropped, unknown
    /// phonemes skipped.
    static func cmuPhones(fromESpeak phonemes: String) -> [String] {
        var phones: [String] = []
        for piece in phonemes.split(separator: "_") {
            let name = piece.filter { $0 != "'" && $0 != "," && $0 != "%" && $0 != "=" }
            for phone in phoneMap[String(name)] ?? [] {
                // r-coloured vowels ("e@" → EH R) already say the R that eSpeak writes after them.
                if phone == "R", phones.last == "R" { continue }
                phones.append(phone)
            }
        }
        return phones
    }
}
