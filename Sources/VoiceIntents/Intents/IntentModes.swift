/// Where an intent may run.
///
/// ```swift
/// static let supportedModes: IntentModes = [.background, .foreground(.dynamic)]
/// ```
///
/// Voice-only operation is the background; a terminal attached to the app is the foreground,
/// where snippets are printed.
public struct IntentModes: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Runs without bringing the app forward: voice only.
    public static let background = IntentModes(rawValue: 1 << 0)
    /// Brings the app forward before it runs.
    public static let foreground = IntentModes(rawValue: 1 << 1)

    /// When a foreground intent comes forward.
    public enum ForegroundMode: Sendable, Hashable {
        /// Forward before `perform()` runs.
        case immediate
        /// Starts in the background; `perform()` may call `continueInForeground(alwaysConfirm:)`.
        case dynamic
        /// Starts in the background and comes forward when it finishes.
        case deferred
    }

    /// The foreground, with a choice of when.
    public static func foreground(_ mode: ForegroundMode) -> IntentModes {
        switch mode {
        case .immediate: .foreground
        case .dynamic: IntentModes(rawValue: 1 << 2)
        case .deferred: IntentModes(rawValue: 1 << 3)
        }
    }

    /// Whether any foreground mode is included.
    public var includesForeground: Bool {
        !intersection([.foreground, .foreground(.dynamic), .foreground(.deferred)]).isEmpty
    }
}

/// What the runtime tells a running intent about where it runs.
public struct IntentSystemContext: Sendable {
    /// The mode the intent runs in now.
    public let currentMode: IntentCurrentMode
}

/// The mode an intent runs in, compared with ``IntentModes``: `currentMode == .foreground`.
public struct IntentCurrentMode: Sendable, Hashable {
    /// `.background` or `.foreground`.
    public let mode: IntentModes
    /// Whether `continueInForeground(alwaysConfirm:)` can bring the intent forward: it runs in the
    /// background, declares a foreground mode, and a screen is attached.
    public let canContinueInForeground: Bool

    public static func == (lhs: IntentCurrentMode, rhs: IntentModes) -> Bool {
        lhs.mode == rhs
    }

    public static func != (lhs: IntentCurrentMode, rhs: IntentModes) -> Bool {
        lhs.mode != rhs
    }
}

extension AppIntent {
    /// Where this run of the intent happens.
    public var systemContext: IntentSystemContext {
        IntentExecution.current?.systemContext
            ?? IntentSystemContext(
                currentMode: IntentCurrentMode(mode: .background, canContinueInForeground: false))
    }

    /// Brings a background intent forward to the screen.
    ///
    /// - Parameter alwaysConfirm: Ask the person first even when the system would not.
    /// - Throws: ``AppIntentError/foregroundUnavailable`` with no screen attached, or
    ///   ``AppIntentError/userCancelled`` when the person declines.
    public func continueInForeground(
        _ dialog: IntentDialog? = nil, alwaysConfirm: Bool = true
    ) async throws {
        guard let execution = IntentExecution.current,
            execution.systemContext.currentMode.canContinueInForeground
        else { throw AppIntentError.foregroundUnavailable }
        if alwaysConfirm {
            try await execution.confirm(dialog ?? "Continue on the screen?", destructive: false)
        }
        execution.moveToForeground()
    }
}
