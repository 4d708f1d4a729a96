import Foundation
import VoiceIntents

/// Names said otherwise than they are written: one letter off ("machu pichu"), or the other way
/// round ("the blinds in the living room").
extension ValueVocabulary {
    /// Names of several words said the other way round from `start`, the end of the name first
    /// and its beginning after a joint: "blinds in the living room" for Living Room Blinds.
    func turnedNames(_ tokens: [Token], from start: Int) -> [Fill] {
        guard let splits = turnedNamesByFirstWord[tokens[start].text] else { return [] }
        var fills: [Fill] = []
        func said(_ wanted: ArraySlice<String>, at position: Int) -> Bool {
            position + wanted.count <= tokens.count
                && zip(wanted, tokens[position...]).allSatisfy { $0 == $1.text }
        }
        for (name, split) in splits {
            let wanted = nameTokens[name]
            let end = wanted[split...]
            guard said(end, at: start) else { continue }
            for joint in Self.turnedNameJoints where said(joint[...], at: start + end.count) {
                let beginning = start + end.count + joint.count
                guard said(wanted[..<split], at: beginning) else { continue }
                let length = beginning + split - start
                let entry = entries[nameOwners[name]]
                let heard = tokens[start..<(start + length)].map(\.surface).joined(separator: " ")
                fills.append(
                    Fill(
                        length: length, title: entry.title, value: entry.value, cost: Self.turnedNameCost,
                        note: "heard \"\(heard)\" as \(entry.title)"))
            }
        }
        return fills
    }

    /// Names one letter off in a word ("machu pichu" for "Machu Picchu"). A name's first word is
    /// the word at `start` or one letter off it.
    func nearMisses(_ words: SpelledWords, from start: Int) -> [Fill] {
        let tokens = words.tokens
        var candidates = Set(namesByFirstWord[tokens[start].text] ?? [])
        for close in words.closeNameWords[start] { candidates.formUnion(namesByFirstWord[close] ?? []) }
        var fills: [Fill] = []
        for name in candidates.sorted() {  // in the names' order, whatever the set's
            let wanted = nameTokens[name]
            guard wanted.count <= tokens.count - start else { continue }
            var letters = 0
            var typos = 0
            var fits = true
            for (offset, word) in wanted.enumerated() {
                let heard = tokens[start + offset].text
                letters += word.count
                if heard == word { continue }
                if word.count >= 4, Self.withinOneEdit(heard, word) {
                    typos += 1
                } else {
                    fits = false; break
                }
            }
            guard fits, typos > 0, typos * 6 <= letters + 2 else { continue }
            let entry = entries[nameOwners[name]]
            let heard = tokens[start..<(start + wanted.count)].map(\.surface).joined(separator: " ")
            fills.append(
                Fill(
                    length: wanted.count, title: entry.title, value: entry.value, cost: 0.3 * Float(typos),
                    note: "heard \"\(heard)\" as \(entry.title)"))
        }
        return fills
    }

    /// Whether two words differ by at most one inserted, deleted or replaced letter.
    static func withinOneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        if x.allSatisfy({ $0 < 0x80 }) && y.allSatisfy({ $0 < 0x80 }) { return withinOneEdit(x, y) }
        return withinOneEdit(Array(a), Array(b))
    }

    private static func withinOneEdit<Letter: Equatable>(_ x: [Letter], _ y: [Letter]) -> Bool {
        if abs(x.count - y.count) > 1 { return false }
        var i = 0
        var j = 0
        var edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] {
                i += 1
                j += 1
                continue
            }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if x.count < y.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }
}
