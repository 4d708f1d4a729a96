import Foundation
import Library
import PhraseMatching
import Testing
import VoiceIntents

/// Free text whose parameter has a `DynamicOptionsProvider`: the suggestions are what grammars
/// offer, and typed words outside them still fill it.
@Suite("Suggested free text")
struct SuggestedTextTests {
    /// `body` with the Library's dependencies (its catalogue) current.
    static func withLibrary<T>(_ body: () async throws -> T) async rethrows -> T {
        let dependencies = AppDependencyManager()
        LibraryApp.registerDependencies(in: dependencies)
        return try await AppDependencyManager.$current.withValue(dependencies) { try await body() }
    }

    static func libraryMatcher() async throws -> PhraseMatcher {
        let phrases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Phrases")
        return try await withLibrary {
            try await PhraseMatcher(
                app: AppDescription(LibraryApp.self),
                catalog: try PhraseCatalog.load(app: "library", locale: "en", in: phrases))
        }
    }

    @Test func theProviderIsAskedForTheSuggestions() async throws {
        let addBook = IntentDefinition(AddBook.self)
        let titles = try await Self.withLibrary { try await addBook.suggestedValues(forParameter: "title") }
        #expect(titles?.contains("The Hobbit") == true)
        #expect(try await addBook.suggestedValues(forParameter: "authorName") == nil)
    }

    /// AddBook's title is offered as the catalogue's titles; its author, free text with no
    /// suggestions, stays free text.
    @Test func spokenFormsOfferTheSuggestions() async throws {
        let forms = try await Self.libraryMatcher().spokenForms
        let addBook = forms.phrases.filter { $0.intent == "AddBook" }
        let title = try #require(addBook.compactMap { $0.placeholders["title"] }.first)
        guard case .suggestedText(let names) = title else {
            Issue.record("title is \(title), not suggested text")
            return
        }
        #expect(names.contains(["the", "hobbit"]))
        #expect(names.contains(["dune"]))
        #expect(Set(names).count == names.count, "each title once (the catalogue has The Road twice)")
        #expect(addBook.allSatisfy { $0.placeholders["title"] == nil || $0.placeholders["title"] == title })
        #expect(addBook.contains { $0.placeholders["authorName"] == .freeText })
    }

    /// Typed, a title the catalogue does not suggest still reaches AddBook as said.
    @Test func typedTitlesOutsideTheSuggestionsStillMatch() async throws {
        let matcher = try await Self.libraryMatcher()
        let unknown = await matcher.match("add Harry Potter to my library").best
        #expect(unknown?.intent == "AddBook")
        #expect(unknown?.values["title"]?.words == "Harry Potter")
        let suggested = await matcher.match("add the hobbit to book library").best
        #expect(suggested?.intent == "AddBook")
        #expect(suggested?.values["title"]?.words == "the hobbit")
    }
}
