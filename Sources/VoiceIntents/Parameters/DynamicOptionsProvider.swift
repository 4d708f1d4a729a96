/// Suggests values for a parameter whose answers are open, such as a title typed or said as
/// free text: the values people are likely to give, found when the question is asked.
///
/// ```swift
/// struct CatalogueTitles: DynamicOptionsProvider {
///     @Dependency var library: LibraryModel
///     func results() async throws -> [String] { library.catalogue.books.map(\.title) }
/// }
///
/// @Parameter(title: "Title", requestValueDialog: "What's the title?", optionsProvider: CatalogueTitles())
/// var title: String
/// ```
///
/// The suggestions become the question's ``ConversationQuestion/options``: a keyboard lists
/// them, and a voice conversation hears the answer among them, since dictation of a short free
/// answer is far less reliable than a grammar of likely ones. A spoken command can say them too
/// where its phrase has the parameter ("add dune to my library"): the phrase matcher asks for
/// them once, when it is made, for the command grammar. Answers and commands outside them are
/// still accepted where they are typed.
public protocol DynamicOptionsProvider: Sendable {
    /// The type of the suggested values: the parameter's value type.
    associatedtype DefaultValue: _IntentValue

    /// The suggested values, in the order to offer them.
    func results() async throws -> [DefaultValue]
}
