import Foundation
import Testing

/// The sample executables, run as a user runs them: typed input on standard input, output and
/// exit status checked.
@Suite("Sample executables")
struct ExecutableTests {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// A built product, in the build folder the tests run from.
    func product(_ name: String) throws -> URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "\(executable.path) is missing: build with `swift build --build-tests` first")
        return executable
    }

    /// Runs a built product with `input` on stdin.
    func run(_ product: String, _ arguments: [String] = [], input: String = "") throws -> Run {
        try run(self.product(product), arguments, input: input)
    }

    /// Runs `executable` with `input` on stdin, with `environment` added to this process's.
    func run(
        _ executable: URL, _ arguments: [String] = [], input: String = "", environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self))
    }

    @Test func typedSessionRunsCommandsAndAnswersQuestions() throws {
        let result = try run(
            "travel-tracking",
            input: """
                navigate to map in travel tracking
                find tickets for kyoto with travel tracker
                2
                yes
                how busy is Chichén Itzá in Travel Tracking?
                delete a collection in travel tracking
                waterfalls
                the third one
                fly me to the moon
                quit

                """)
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Travel Tracking is ready. Type a command, \"help\" for phrases, or \"quit\".")
        // Navigate may only run in the foreground: the app comes forward on the screen.
        #expect(result.output.contains("> ┌ Travel Tracking: Navigate to Section\nOpening Map.\n"))
        #expect(
            result.output.contains(
                "How many tickets?\n? Search for 2 tickets to Kinkaku-ji? (yes/no)\n? I found 2 tickets to Kinkaku-ji for 8 dollars in total.\n"
            ))
        #expect(result.output.contains("Chichén Itzá is busy right now, with about 6000 visitors."))
        #expect(result.output.contains("  3. Delete\n? Deleted Waterfalls."))
        #expect(
            result.output.contains("Sorry, I didn't understand that. Type \"help\" to see what I can do.\n"))
        #expect(result.errors.isEmpty)
    }

    @Test func endOfInputCancelsAnOpenQuestion() throws {
        let result = try run("library", input: "add a book to library\n")
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                "What's the title of the book?\n  (Persuasion, Emma, Dune, The Road, Middlemarch, Beloved, Kindred, The Hobbit, Rebecca, Solaris, Nostromo)\n? \nOkay, cancelled.\n"
            ), "\(result.output)")
    }

    @Test func voiceOnlyGivesFullDialogsAndNoSnippets() throws {
        let command = "what is the closest landmark in travel tracking\n"
        let screen = try run("travel-tracking", input: command)
        #expect(screen.output.contains("│ Golden Gate Bridge ★"))
        #expect(screen.output.contains("Golden Gate Bridge is in North America."))
        let voice = try run("travel-tracking", ["run", "--voice-only"], input: command)
        #expect(!voice.output.contains("│") && !voice.output.contains("┌"))
        #expect(voice.output.contains("The closest landmark is Golden Gate Bridge, 7 kilometers away."))
    }

    @Test func opensIntentChainIsPrinted() throws {
        let result = try run("library", input: "add dune to library\n")
        #expect(
            result.output.contains(
                "Added Dune by Frank Herbert to your library.\n┌ Library: Open Book\nOpening Dune by Frank Herbert.\n"
            ))
    }

    @Test func performRunsOneIntentByName() throws {
        let result = try run(
            "travel-tracking", ["perform", "NavigateIntent", "navigationOption=collections"])
        #expect(result.status == 0)
        #expect(result.output == "Opening Collections.\n")

        let asked = try run("library", ["perform", "BuyBook", "book=kindred", "count=two"], input: "no\n")
        #expect(
            asked.output.contains("2 copies of Kindred costs 24 dollars. Are you ready to order? (yes/no)"))
        #expect(asked.output.hasSuffix("Okay, cancelled.\n"))
    }

    @Test func performFailuresExitNonZeroWithAMessage() throws {
        let unknownIntent = try run("travel-tracking", ["perform", "FlyIntent"])
        #expect(unknownIntent.status != 0)
        #expect(
            unknownIntent.errors.contains(
                "no intent 'FlyIntent'; the app has: NavigateIntent, ClosestLandmarkIntent"))

        let unknownParameter = try run("travel-tracking", ["perform", "NavigateIntent", "section=map"])
        #expect(unknownParameter.status != 0)
        #expect(
            unknownParameter.errors.contains(
                "NavigateIntent has no parameter 'section'; it has: navigationOption"))

        let thrown = try run(
            "travel-tracking", ["perform", "FindTicketsIntent", "landmark=petra", "ticketCount=0"])
        #expect(thrown.status != 0)
        #expect(thrown.output == "You need at least one ticket.\n")
    }

    @Test func shortcutsListsPhrasesAndParameters() throws {
        let result = try run("travel-tracking", ["shortcuts"])
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                "Navigate (NavigateIntent)\n  \"Navigate in Travel Tracking\"\n  \"Navigate to <navigationOption> in Travel Tracking\""
            ))
        #expect(
            result.output.contains("    ticketCount: Int \"Number of Tickets\" prompt \"How many tickets?\""))
        #expect(
            result.output.contains(
                "  GetCrowdStatusIntent \"Get Crowd Status\" modes: background, foreground(dynamic)"))
    }

    @Test func validateReportsACleanDeclaration() throws {
        for product in ["travel-tracking", "library"] {
            let result = try run(product, ["validate"])
            #expect(result.status == 0)
            #expect(result.output == "0 errors, 0 warnings\n")
        }
    }

    @Test func helpNamesTheCommands() throws {
        let result = try run("library", ["--help"])
        #expect(result.status == 0)
        for command in ["run", "perform", "shortcuts", "validate"] {
            #expect(result.output.contains("  \(command)"))
        }
    }
}
