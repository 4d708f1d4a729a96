/// Who may run an intent: anyone, or only a person known to be the device's user.
///
/// ```swift
/// struct UnlockDoorIntent: AppIntent {
///     static let title: LocalizedStringResource = "Unlock Door"
///     static let authenticationPolicy: IntentAuthenticationPolicy = .requiresAuthentication
///     …
/// }
/// ```
///
/// A voice loop cannot tell who is speaking, so it treats every spoken command as coming from a
/// locked device (``IntentRunner/isAuthenticated`` is `false`): an intent that
/// ``requiresAuthentication`` is read back and runs only on a spoken yes, and one that
/// ``requiresLocalDeviceAuthentication`` does not run from voice at all. Typed commands and code
/// run every intent as they are.
public enum IntentAuthenticationPolicy: Sendable, Hashable, CaseIterable {
    /// Runs at any time, from anyone (the default).
    case alwaysAllowed
    /// Runs once the person is known. By voice: after a yes to a read-back of the command
    /// ("Unlock the front door?"), heard above the loop's confirmation bar.
    case requiresAuthentication
    /// Runs only on the device itself, never from voice alone.
    case requiresLocalDeviceAuthentication
}
