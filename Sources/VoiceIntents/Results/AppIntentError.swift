/// An error whose text is what the listener hears.
///
/// ```swift
/// enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
///     case notFound
///     var localizedStringResource: LocalizedStringResource {
///         switch self { case .notFound: "Book Not Found" }
///     }
/// }
/// ```
public protocol CustomLocalizedStringResourceConvertible {
    /// The text to say.
    var localizedStringResource: LocalizedStringResource { get }
}

/// Errors the runtime itself raises while running an intent.
///
/// ```swift
/// do { try await requestConfirmation() } catch AppIntentError.userCancelled { … }
/// ```
public enum AppIntentError: Error, Sendable, Hashable, CustomLocalizedStringResourceConvertible,
    CustomStringConvertible
{
    /// The person cancelled ("cancel", "never mind", declined a confirmation, picked `.cancel`).
    case userCancelled
    /// A question was asked outside a run of ``IntentRunner``, so nobody could answer it.
    case noConversation
    /// `continueInForeground` was called with no screen attached or a mode that forbids it.
    case foregroundUnavailable
    /// A required parameter has no value and none could be had.
    case missingValue(parameter: String)
    /// An answer could not be understood as a value of the parameter, after asking again.
    case unresolvedValue(parameter: String, answer: String)
    /// A dependency that an intent or query reads was never registered.
    case missingDependency(type: String)
    /// A value given for a parameter has the wrong type.
    case invalidValue(parameter: String, expected: String, got: String)
    /// A parameter name that the intent does not have.
    case unknownParameter(name: String, intent: String)
    /// `perform()` asked for values again and again.
    case tooManyRequests(intent: String)
    /// The intent requires local device authentication
    /// (``IntentAuthenticationPolicy/requiresLocalDeviceAuthentication``) and was asked for by
    /// someone the runner does not know (a voice).
    case deviceAuthenticationRequired(intent: String)

    public var localizedStringResource: LocalizedStringResource {
        switch self {
        case .userCancelled: "Okay, cancelled."
        case .noConversation: "I can't ask anything right now."
        case .foregroundUnavailable: "That needs a screen."
        case .missingValue(let parameter): "I still need the \(parameter)."
        case .unresolvedValue(let parameter, let answer):
            "Sorry, I don't know \"\(answer)\" as a \(parameter)."
        case .missingDependency: "Sorry, that isn't set up."
        case .invalidValue(let parameter, _, _): "That isn't a valid \(parameter)."
        case .unknownParameter: "Sorry, something went wrong."
        case .tooManyRequests: "Sorry, I couldn't finish that."
        case .deviceAuthenticationRequired: "Sorry, that can only be done on the device itself, not by voice."
        }
    }

    public var description: String {
        switch self {
        case .missingDependency(let type):
            "dependency \(type) is not registered: add `AppDependencyManager.shared.add { \(type)(…) }` in the app's init()"
        case .invalidValue(let parameter, let expected, let got):
            "parameter '\(parameter)' takes \(expected), got \(got)"
        case .unknownParameter(let name, let intent):
            "\(intent) has no @Parameter named '\(name)'"
        case .tooManyRequests(let intent):
            "\(intent).perform() asked for values more than \(IntentRunner.maximumRequests) times"
        case .deviceAuthenticationRequired(let intent):
            "\(intent) requires local device authentication, and the command came from someone not known (a voice)"
        case .noConversation:
            "a question was asked outside IntentRunner.run, so there is no Conversation to answer it"
        default: localizedStringResource.defaultValue
        }
    }
}
