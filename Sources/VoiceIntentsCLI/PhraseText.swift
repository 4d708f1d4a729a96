import Foundation
import VoiceIntents

/// Phrase templates as people read and type them.
enum PhraseText {
    /// The template with the app name filled in and placeholders as `<title>`:
    /// "Navigate to <section> in Travel Tracking".
    static func example(of template: PhraseTemplate, appName: String) -> String {
        template.parts.map { part in
            switch part {
            case .text(let text): text
            case .applicationName: appName
            case .parameter(let name, let type): "<\(name ?? type.typeName)>"
            }
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    /// Lower case, punctuation removed (apostrophes kept), single spaces.
    static func normalized(_ text: String) -> [String] {
        String(text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " })
            .split(separator: " ").map(String.init)
    }
}
