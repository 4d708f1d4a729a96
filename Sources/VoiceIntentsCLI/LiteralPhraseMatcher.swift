import VoiceIntents

/// Finds the shortcut a typed sentence spells out: every literal word of a phrase must be there,
/// in order, and each placeholder takes the words between them.
///
/// It is strict on purpose: the forgiving matcher (fillers, misheard words, scores) is the
/// phrase-matching module's job. Among phrases that fit, it prefers those whose placeholder
/// words name known values, then those with more literal words.
struct LiteralPhraseMatcher: Sendable {
    /// A sentence fitted to a shortcut, with the words that stand for each parameter.
    struct Match: Sendable {
        let shortcut: AppShortcut
        let phrase: PhraseTemplate
        let parameterWords: [String: String]
    }

    private enum Item {
        case word(String)
        case applicationName
        case placeholder(String)
    }

    let description: AppDescription
    private let appNames: [[String]]

    init(description: AppDescription) {
        self.description = description
        self.appNames = description.spokenNames.map(PhraseText.normalized)
    }

    /// The best fitting shortcut, or `nil` when no phrase fits `sentence`.
    func match(_ sentence: String) async -> Match? {
        let words = PhraseText.normalized(sentence)
        var best: (match: Match, rank: (Int, Int))?
        for shortcut in description.shortcuts where shortcut.intentType.isDiscoverable {
            for phrase in shortcut.phrases {
                guard let captured = fit(words, items(of: phrase)) else { continue }
                var known = 0
                for (name, text) in captured
                where !((try? await shortcut.values(matching: text, forParameter: name)) ?? []).isEmpty {
                    known += 1
                }
                let rank = (known - captured.count, literalCount(phrase))
                if best == nil || rank > best!.rank {
                    best = (Match(shortcut: shortcut, phrase: phrase, parameterWords: captured), rank)
                }
            }
        }
        return best?.match
    }

    private func items(of phrase: PhraseTemplate) -> [Item] {
        phrase.parts.flatMap { part -> [Item] in
            switch part {
            case .text(let text): PhraseText.normalized(text).map(Item.word)
            case .applicationName: [.applicationName]
            case .parameter(let name, _): name.map { [.placeholder($0)] } ?? []
            }
        }
    }

    private func literalCount(_ phrase: PhraseTemplate) -> Int {
        items(of: phrase).count { if case .word = $0 { true } else { false } }
    }

    private func fit(_ words: [String], _ items: [Item]) -> [String: String]? {
        var captured: [String: String] = [:]
        return fit(words[...], items[...], &captured) ? captured : nil
    }

    private func fit(
        _ words: ArraySlice<String>, _ items: ArraySlice<Item>, _ captured: inout [String: String]
    ) -> Bool {
        guard let item = items.first else { return words.isEmpty }
        let rest = items.dropFirst()
        switch item {
        case .word(let word):
            return words.first == word && fit(words.dropFirst(), rest, &captured)
        case .applicationName:
            return appNames.contains { name in
                words.starts(with: name) && fit(words.dropFirst(name.count), rest, &captured)
            }
        case .placeholder(let name):
            guard !words.isEmpty else { return false }
            for end in (words.startIndex + 1)...words.endIndex {
                captured[name] = words[words.startIndex..<end].joined(separator: " ")
                if fit(words[end...], rest, &captured) { return true }
            }
            captured[name] = nil
            return false
        }
    }
}
