import Synchronization

/// One run of an intent: the conversation, dependencies and mode that its questions and
/// `@Dependency` reads reach through a task-local value.
final class IntentExecution: Sendable {
    @TaskLocal static var current: IntentExecution?

    let conversation: any Conversation
    let dependencies: AppDependencyManager
    let intentTitle: String
    let undoManager = IntentUndoManager()
    private let mode: Mutex<IntentCurrentMode>

    init(
        conversation: any Conversation, dependencies: AppDependencyManager, intentTitle: String,
        mode: IntentCurrentMode
    ) {
        self.conversation = conversation
        self.dependencies = dependencies
        self.intentTitle = intentTitle
        self.mode = Mutex(mode)
    }

    var systemContext: IntentSystemContext {
        IntentSystemContext(currentMode: mode.withLock { $0 })
    }

    func moveToForeground() {
        mode.withLock { $0 = IntentCurrentMode(mode: .foreground, canContinueInForeground: false) }
    }

    // MARK: Asking

    private func ask(
        _ kind: ConversationQuestion.Kind, _ dialog: IntentDialog,
        parameter: IntentParameterDescription? = nil, options: [String] = [],
        choices: [IntentChoiceOption] = [], snippet: String? = nil, destructive: Bool = false,
        attempt: Int
    ) async throws -> ConversationReply {
        let question = ConversationQuestion(
            kind: kind, dialog: dialog, intentTitle: intentTitle, parameter: parameter,
            options: options, choices: choices, snippet: snippet, isDestructive: destructive,
            attempt: attempt)
        let reply = try await conversation.ask(question)
        if reply == .cancel { throw AppIntentError.userCancelled }
        if case .text(let words) = reply, SpokenAnswer.isCancel(words) {
            throw AppIntentError.userCancelled
        }
        return reply
    }

    /// Asks for a value until one is understood (twice at most) and stores it in `parameter`.
    ///
    /// - Parameters:
    ///   - parameter: The parameter to fill.
    ///   - dialog: The question; the parameter's prompt when `nil`.
    ///   - preface: Said before the first question only ("Sorry, I don't know "the moon".").
    func askForValue(
        _ parameter: any _AnyIntentParameter, dialog: IntentDialog?, preface: String? = nil
    ) async throws {
        let description = parameter._describe()
        let prompt =
            dialog ?? parameter.requestValueDialog
            ?? IntentDialog(
                LocalizedStringResource(description.spokenPrompt))
        let options = try await parameter._spokenNames()
        var question = preface.map { Self.again($0, prompt) } ?? prompt
        var lastAnswer = ""
        for attempt in 1...2 {
            let reply = try await ask(
                .value, question, parameter: description, options: options, attempt: attempt)
            if case .text(let words) = reply {
                lastAnswer = words
                if try await assign(words, to: parameter) { return }
                let reason = await parameter._whyNot(words) ?? "Sorry, I don't know \"\(words)\"."
                question = Self.again(reason, prompt)
            } else {
                question = Self.again("Sorry, I didn't catch that.", prompt)
            }
        }
        throw lastAnswer.isEmpty
            ? AppIntentError.missingValue(parameter: description.title.lowercased())
            : AppIntentError.unresolvedValue(
                parameter: description.title.lowercased(), answer: lastAnswer)
    }

    /// Resolves `words` into a value of `parameter`, disambiguating when several fit; `false`
    /// when none does.
    func assign(_ words: String, to parameter: any _AnyIntentParameter) async throws -> Bool {
        let candidates = try await parameter._values(matching: words)
        switch candidates.count {
        case 0:
            return false
        case 1:
            return parameter._setValue(candidates[0])
        default:
            let index = try await disambiguate(
                parameter._describe(), among: candidates.map { spokenText(of: $0) }, dialog: nil)
            return parameter._setValue(candidates[index])
        }
    }

    /// Asks which of `options` was meant; returns its index.
    func disambiguate(
        _ parameter: IntentParameterDescription?, among options: [String], dialog: IntentDialog?
    ) async throws -> Int {
        let noun = parameter?.title.lowercased() ?? "one"
        let prompt = dialog ?? IntentDialog(LocalizedStringResource("Which \(noun)?"))
        var question = prompt
        for attempt in 1...2 {
            let reply = try await ask(
                .disambiguation, question, parameter: parameter, options: options,
                attempt: attempt)
            if let index = OptionSelection.index(of: reply, in: options) { return index }
            question = Self.again("Sorry, I didn't catch that.", prompt)
        }
        throw AppIntentError.userCancelled
    }

    /// Asks yes or no; an unclear answer is asked once more, then taken as cancel.
    func yesOrNo(
        _ dialog: IntentDialog, parameter: IntentParameterDescription? = nil,
        snippet: String? = nil, destructive: Bool
    ) async throws -> Bool {
        var question = dialog
        for attempt in 1...2 {
            let reply = try await ask(
                .confirmation, question, parameter: parameter, snippet: snippet,
                destructive: destructive, attempt: attempt)
            switch reply {
            case .yes: return true
            case .no: return false
            case .text(let words):
                if let answer = SpokenAnswer.yesOrNo(words) { return answer }
            default: break
            }
            question = Self.again("Sorry, was that a yes or a no?", dialog)
        }
        throw AppIntentError.userCancelled
    }

    /// Asks for confirmation; anything but yes cancels the intent.
    func confirm(_ dialog: IntentDialog, snippet: String? = nil, destructive: Bool) async throws {
        guard try await yesOrNo(dialog, snippet: snippet, destructive: destructive) else {
            throw AppIntentError.userCancelled
        }
    }

    /// Reads the command back (``ReadBack``) and returns on a yes. On a no, asks for its values
    /// again and reads it back with the new ones, unless each is one of its parameter's
    /// suggestions; a second no (or an unclear answer, twice) cancels the intent. `otherwise`
    /// is the question when the sentence cannot be read back ("Add to List: toothpaste?"),
    /// made again from the values each time.
    func makeSure(
        of readBack: ReadBack, declared: [any _AnyIntentParameter],
        otherwise: @autoclosure () -> String
    ) async throws {
        var current = readBack.values
        for attempt in 1...2 {
            let question = readBack.question(with: current) ?? otherwise()
            if try await yesOrNo(IntentDialog(LocalizedStringResource(question)), destructive: false) {
                return
            }
            guard attempt == 1 else { break }
            var suggested = true
            for name in readBack.values.keys.sorted() {
                guard let parameter = declared.first(where: { $0.name == name }) else { continue }
                parameter._clearValue()
                try await askForValue(parameter, dialog: nil)
                let words = parameter._currentValue.map { spokenText(of: $0) } ?? ""
                current[name] = words
                let suggestions = try await parameter._suggestedNames() ?? []
                suggested =
                    suggested
                    && suggestions.contains { SpokenAnswer.normalized($0) == SpokenAnswer.normalized(words) }
            }
            if suggested { return }
        }
        throw AppIntentError.userCancelled
    }

    /// Asks for one of `options`; picking the cancel option cancels the intent.
    func choose(
        _ options: [IntentChoiceOption], dialog: IntentDialog, snippet: String?
    ) async throws -> IntentChoiceOption {
        let titles = options.map(\.title.defaultValue)
        var question = dialog
        for attempt in 1...2 {
            let reply = try await ask(
                .choice, question, options: titles, choices: options, snippet: snippet,
                destructive: options.contains { $0.style == .destructive }, attempt: attempt)
            if let index = OptionSelection.index(of: reply, in: titles) {
                if options[index].style == .cancel { throw AppIntentError.userCancelled }
                return options[index]
            }
            question = Self.again("Sorry, I didn't catch that.", dialog)
        }
        throw AppIntentError.userCancelled
    }

    private static func again(_ apology: String, _ prompt: IntentDialog) -> IntentDialog {
        IntentDialog(
            full: LocalizedStringResource("\(apology) \(prompt.full.defaultValue)"),
            supporting: LocalizedStringResource("\(apology) \(prompt.supporting.defaultValue)"))
    }
}

/// Which option a reply picks: by position, by ordinal ("the second one", "number two",
/// "last"), or by name.
public enum OptionSelection {
    /// The index of the option `reply` picks among `options`, or `nil`.
    public static func index(of reply: ConversationReply, in options: [String]) -> Int? {
        switch reply {
        case .option(let index): return options.indices.contains(index) ? index : nil
        case .text(let words): return index(of: words, in: options)
        default: return nil
        }
    }

    /// The index of the option `words` pick among `options`, or `nil`.
    public static func index(of words: String, in options: [String]) -> Int? {
        let named = SpokenMatch.best(in: Array(options.indices), for: words) { [options[$0]] }
        if named.count == 1 { return named[0] }
        let spoken = SpokenAnswer.normalized(words).split(separator: " ").map(String.init)
        let filler: Set<String> = ["the", "one", "number", "option", "please", "choice"]
        let meaningful = spoken.filter { !filler.contains($0) }
        guard meaningful.count == 1 || (spoken.first == "number" && meaningful.count >= 1) else {
            return nil
        }
        let word = meaningful.joined(separator: " ")
        let position: Int?
        if let ordinal = SpokenNumber.ordinal(word) {
            position = ordinal == -1 ? options.count : ordinal
        } else if spoken.contains("number") || spoken.contains("option"),
            let number = SpokenNumber.parse(word)
        {
            position = Int(number)
        } else {
            position = nil
        }
        guard let position, (1...options.count).contains(position) else { return nil }
        return position - 1
    }
}
