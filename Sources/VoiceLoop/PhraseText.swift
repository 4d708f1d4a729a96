import Foundation
import VoiceIntents

/// Phrase templates as people read and type them.
package enum PhraseText {
    /// The template with the app name filled in and placeholders as `<parameter name>`:
    /// "Navigate to <navigationOption> in Travel Tracking".
    package static func example(of template: PhraseTemplate, appName: String) -> String {
        template.parts.map { part in
            switch part {
            case .text(let text): text
            case .applicationName: appName
            case .parameter(let name, let type): "<\(name ?? type.typeName)>"
            }
        }.joined().trimmingCharacters(in: .whitespaces)
    }
}
