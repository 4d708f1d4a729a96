// swift-tools-version: 6.1
// A program of its own that embeds the voice loop: what an app outside this repository writes.
// It depends on the VoiceLoop product only, so no command-line parser is built into it.
import PackageDescription

let package = Package(
    name: "EmbeddedLoop",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Outside this repository: .package(url: "https://…/voice-intents.git", from: "…")
        .package(name: "VoiceIntents", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "EmbeddedLoop",
            dependencies: [
                .product(name: "VoiceLoop", package: "VoiceIntents"),
                .product(name: "VoiceIntents", package: "VoiceIntents"),
            ])
    ]
)
