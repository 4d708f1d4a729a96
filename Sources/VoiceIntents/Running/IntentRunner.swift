import Foundation

/// Runs intents: fills their parameters, asks for what is missing, runs `perform()`, answers its
/// questions through a ``Conversation``, and follows `opensIntent`.
///
/// ```swift
/// let runner = IntentRunner(conversation: conversation)
/// let outcome = await runner.run(NavigateIntent.self, parameters: ["navigationOption": "map"])
/// ```
///
/// A parameter value may be given typed (`NavigationOption.map`) or as words (`"map"`, `"Kyoto"`,
/// `"twenty three"`), which are resolved like a spoken answer. The run never throws: errors,
/// cancellations and results all become an ``IntentOutcome``.
public struct IntentRunner: Sendable {
    /// How often one run may ask for values through `throw $param.requestValue()`.
    public static let maximumRequests = 8

    /// Who answers questions.
    public var conversation: any Conversation
    /// Where `@Dependency` values come from.
    public var dependencies: AppDependencyManager
    /// Whether a screen (a terminal) is attached, so foreground intents can show snippets.
    public var hasScreen: Bool
    /// How many intents one command may chain through `opensIntent`.
    public var maximumChainLength: Int
    /// Whether the person giving commands is known to be the device's user: `true` for typed
    /// commands and code, `false` for a voice loop, which cannot tell who is speaking. When
    /// `false`, an intent whose ``AppIntent/authenticationPolicy`` requires authentication is read
    /// back as a confirmation ("Unlock Front Door?") and runs only on a yes, and one that requires
    /// local device authentication does not run.
    public var isAuthenticated: Bool
    /// Identifiers of intents that are confirmed like ones that require authentication when
    /// ``isAuthenticated`` is `false`, though their own policy allows them: those whose phrases
    /// sound like a sensitive intent's, so that the one heard in place of the other asks first.
    public var confirmedIntents: Set<String>

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - conversation: Who answers questions.
    ///   - dependencies: Where `@Dependency` values come from.
    ///   - hasScreen: Whether a screen is attached.
    ///   - maximumChainLength: How many intents `opensIntent` may chain.
    ///   - isAuthenticated: Whether the person is known to be the device's user (`false` by voice).
    ///   - confirmedIntents: Intents confirmed by voice as if they required authentication.
    public init(
        conversation: any Conversation, dependencies: AppDependencyManager = .shared,
        hasScreen: Bool = false, maximumChainLength: Int = 4, isAuthenticated: Bool = true,
        confirmedIntents: Set<String> = []
    ) {
        self.conversation = conversation
        self.dependencies = dependencies
        self.hasScreen = hasScreen
        self.maximumChainLength = maximumChainLength
        self.isAuthenticated = isAuthenticated
        self.confirmedIntents = confirmedIntents
    }

    /// Runs an intent of `type` with the given parameter values.
    ///
    /// - Parameters:
    ///   - type: The intent type.
    ///   - parameters: Values by parameter name, typed or as words.
    public func run(
        _ type: any AppIntent.Type, parameters: [String: any Sendable] = [:]
    ) async -> IntentOutcome {
        await run(type.init(), parameters: parameters)
    }

    /// Runs `intent`, keeping the values it already has (as an `AppShortcut`'s intent may), with
    /// `parameters` added.
    ///
    /// - Parameters:
    ///   - intent: The intent; it is copied, never changed.
    ///   - parameters: Values by parameter name, typed or as words.
    public func run(
        _ intent: any AppIntent, parameters: [String: any Sendable] = [:]
    ) async -> IntentOutcome {
        await execute(intent, parameters: parameters, depth: 0, fresh: true)
    }

    /// Runs `intent` as ``run(_:parameters:)-(any AppIntent,_)`` does, but first reads the command back
    /// (`readBack`) once its values are in, when some were heard unsurely: it runs on a yes.
    package func run(
        _ intent: any AppIntent, parameters: [String: any Sendable], readingBack readBack: ReadBack?
    ) async -> IntentOutcome {
        await execute(intent, parameters: parameters, depth: 0, fresh: true, readBack: readBack)
    }

    /// Runs `template`'s type. With `fresh`, on a new instance that takes only `template`'s
    /// parameter values: parameters are reference types that every copy of a shortcut's intent
    /// shares, so running the template itself would leak one command's values into the next.
    /// Intents that `perform()` just made for `opensIntent` are run as they are, keeping any
    /// state their initializer set.
    private func execute<Intent: AppIntent>(
        _ template: Intent, parameters: [String: any Sendable], depth: Int, fresh: Bool,
        readBack: ReadBack? = nil
    ) async -> IntentOutcome {
        let intent = fresh ? Intent() : template
        let declared = IntentReflection.parameters(of: intent)
        if fresh {
            for (parameter, given) in zip(declared, IntentReflection.parameters(of: template)) {
                parameter._copyValue(from: given)
            }
        }
        let modes = Intent.supportedModes
        let foreground = hasScreen && (modes.contains(.foreground) || Intent.openAppWhenRun)
        let execution = IntentExecution(
            conversation: conversation, dependencies: dependencies,
            intentTitle: Intent.title.defaultValue,
            mode: IntentCurrentMode(
                mode: foreground ? .foreground : .background,
                canContinueInForeground: hasScreen && !foreground && modes.includesForeground))

        let bound = (execution, dependencies)
        return await IntentExecution.$current.withValue(bound.0) {
            await AppDependencyManager.$current.withValue(bound.1) {
                await perform(
                    intent, declared: declared, parameters: parameters, execution: execution,
                    depth: depth, readBack: readBack)
            }
        }
    }

    private func perform<Intent: AppIntent>(
        _ intent: Intent, declared: [any _AnyIntentParameter], parameters: [String: any Sendable],
        execution: IntentExecution, depth: Int, readBack: ReadBack?
    ) async -> IntentOutcome {
        let modes = Intent.supportedModes
        do {
            let missing = IntentReflection.missingDependencies(of: intent, in: dependencies)
            if let first = missing.first { throw AppIntentError.missingDependency(type: first) }
            // Its own are made before it runs, those with an asynchronous maker too: one that
            // cannot be made fails it. The others are made for the entity queries of its
            // parameters; one that cannot be made fails only what reads it.
            for dependency in IntentReflection.dependencies(of: intent) {
                try await dependencies.make(dependency._valueType, key: dependency.key)
            }
            try? await dependencies.makeAsynchronous()
            try await fill(declared, with: parameters, in: execution, intent: Intent.self)
            if let readBack {
                try await execution.makeSure(
                    of: readBack, declared: declared,
                    otherwise: Self.readBack(of: intent, parameters: declared))
            }
            for parameter in declared where parameter._needsValue {
                try await execution.askForValue(parameter, dialog: nil)
            }
            try await authenticate(intent, declared: declared, execution: execution)
            let result = try await performAnsweringRequests(intent, execution: execution)
            if modes.contains(.foreground(.deferred)) && hasScreen {
                execution.moveToForeground()
            }
            return await outcome(
                of: intent, parameters: declared, result: result, execution: execution,
                depth: depth)
        } catch {
            return failure(of: intent, parameters: declared, error: error, execution: execution)
        }
    }

    /// Asks before an intent that needs a known person runs for one who is not (a voice): a
    /// read-back of the command to say yes to, or a refusal for what only the device may do.
    private func authenticate<Intent: AppIntent>(
        _ intent: Intent, declared: [any _AnyIntentParameter], execution: IntentExecution
    ) async throws {
        guard !isAuthenticated else { return }
        switch Intent.authenticationPolicy {
        case .requiresLocalDeviceAuthentication:
            throw AppIntentError.deviceAuthenticationRequired(intent: Intent.persistentIdentifier)
        case .requiresAuthentication:
            break
        case .alwaysAllowed:
            guard confirmedIntents.contains(Intent.persistentIdentifier) else { return }
        }
        try await execution.confirm(
            IntentDialog(LocalizedStringResource(Self.readBack(of: intent, parameters: declared))),
            destructive: true)
    }

    /// The command as a question: the intent's parameter summary ("Unlock Front Door?"), or its
    /// title with its values ("Unlock Door: Front Door?").
    static func readBack<Intent: AppIntent>(
        of intent: Intent, parameters: [any _AnyIntentParameter]
    ) -> String {
        if let summary = intent.summaryText?.trimmingCharacters(in: .whitespaces), !summary.isEmpty {
            return summary.prefix(1).uppercased() + summary.dropFirst() + "?"
        }
        let values = parameters.compactMap { $0._currentValue.map { spokenText(of: $0) } }
            .filter { !$0.isEmpty }
        let title = Intent.title.defaultValue
        return values.isEmpty ? "\(title)?" : "\(title): \(values.joined(separator: ", "))?"
    }

    private func fill<Intent: AppIntent>(
        _ declared: [any _AnyIntentParameter], with values: [String: any Sendable],
        in execution: IntentExecution, intent: Intent.Type
    ) async throws {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let parameter = declared.first(where: { $0.name == name }) else {
                throw AppIntentError.unknownParameter(name: name, intent: Intent.persistentIdentifier)
            }
            if let reason = parameter._outOfRange(value) {
                // A number the parameter does not take: say why and ask, as if none was given.
                try await execution.askForValue(parameter, dialog: nil, preface: reason)
                continue
            }
            if parameter._setValue(value) { continue }
            guard let words = value as? String else {
                throw AppIntentError.invalidValue(
                    parameter: name, expected: parameter._valueType.typeName,
                    got: String(describing: type(of: value)))
            }
            if try await !execution.assign(words, to: parameter) {
                // Words that name no value: ask, as if the command had not given one.
                try await execution.askForValue(
                    parameter, dialog: nil, preface: "Sorry, I don't know \"\(words)\".")
            }
        }
    }

    private func performAnsweringRequests<Intent: AppIntent>(
        _ intent: Intent, execution: IntentExecution
    ) async throws -> Intent.PerformResult {
        var requests = 0
        while true {
            do {
                return try await intent.perform()
            } catch let request as NeedsValueError {
                requests += 1
                guard requests <= Self.maximumRequests else {
                    throw AppIntentError.tooManyRequests(intent: Intent.persistentIdentifier)
                }
                try await execution.askForValue(request.parameter, dialog: request.dialog)
            }
        }
    }

    private func outcome<Intent: AppIntent>(
        of intent: Intent, parameters: [any _AnyIntentParameter], result: Intent.PerformResult,
        execution: IntentExecution, depth: Int
    ) async -> IntentOutcome {
        let parts = result as? any _IntentResultParts
        var snippet = parts?._snippet?.text
        if snippet == nil, let snippetIntent = parts?._snippetIntent {
            snippet = await execute(snippetIntent, parameters: [:], depth: depth + 1, fresh: false)
                .snippetText
        }
        var next: [IntentOutcome] = []
        if let opened = parts?._opensIntent, depth + 1 < maximumChainLength {
            next.append(await execute(opened, parameters: [:], depth: depth + 1, fresh: false))
        }
        // `.result(value: nil)` for `ReturnsValue<T?>` returns no value.
        let value = parts?._hasValue == true ? parts?._value.flatMap(Self.unwrapped) : nil
        return IntentOutcome(
            intent: Intent.persistentIdentifier, title: Intent.title.defaultValue,
            status: .completed, dialog: parts?._dialog, value: value,
            valueText: value.map { spokenText(of: $0) }, snippetText: snippet,
            errorMessage: nil, errorDetail: nil,
            ranInForeground: execution.systemContext.currentMode == .foreground,
            parameters: Self.spokenValues(parameters), next: next,
            undoAction: execution.undoManager.action)
    }

    private func failure<Intent: AppIntent>(
        of intent: Intent, parameters: [any _AnyIntentParameter], error: any Error,
        execution: IntentExecution
    ) -> IntentOutcome {
        let cancelled = (error as? AppIntentError) == .userCancelled
        let message = Self.spokenMessage(for: error)
        return IntentOutcome(
            intent: Intent.persistentIdentifier, title: Intent.title.defaultValue,
            status: cancelled ? .cancelled : .failed,
            dialog: IntentDialog(LocalizedStringResource(message)), value: nil, valueText: nil,
            snippetText: nil, errorMessage: cancelled ? nil : message,
            errorDetail: cancelled ? nil : String(describing: error),
            ranInForeground: execution.systemContext.currentMode == .foreground,
            parameters: Self.spokenValues(parameters), next: [])
    }

    /// What a listener hears for an error: its `localizedStringResource`, its
    /// `LocalizedError.errorDescription`, or a general apology.
    public static func spokenMessage(for error: any Error) -> String {
        if let convertible = error as? any CustomLocalizedStringResourceConvertible {
            return convertible.localizedStringResource.defaultValue
        }
        if let localized = error as? any LocalizedError, let text = localized.errorDescription {
            return text
        }
        return "Sorry, something went wrong."
    }

    private static func unwrapped(_ value: any Sendable) -> (any Sendable)? {
        guard let optional = value as? any _OptionalValue else { return value }
        // Result values are intent values, so what an optional wraps is one too.
        return optional._wrapped as? any _IntentValue
    }

    private static func spokenValues(_ parameters: [any _AnyIntentParameter]) -> [String: String] {
        var values: [String: String] = [:]
        for parameter in parameters {
            guard let name = parameter.name, let value = parameter._currentValue else { continue }
            let text = spokenText(of: value)
            if !text.isEmpty { values[name] = text }
        }
        return values
    }
}
