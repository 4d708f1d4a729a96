import Foundation
import Testing

/// The module graph that `Sources/README.md` shows is the one `Package.swift` declares.
@Suite("Package layout")
struct PackageLayoutTests {
    /// The repository's root: the folder above this file with a `Package.swift`.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// What each library module builds on directly, as `Package.swift` declares it, with the
    /// dependencies that another of its dependencies already brings left out.
    static func declaredGraph() throws -> [String: Set<String>] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "package-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch folder of its own, so that it waits for no build of the package.
        process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift package dump-package failed")

        struct Manifest: Decodable {
            struct Target: Decodable {
                var name: String
                var type: String
                var path: String?
                var dependencies: [[String: [AnyCodable?]]]
            }
            var targets: [Target]
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: data)
        // The modules in Sources/ of their own name (not the C libraries, the examples or the
        // benchmarks' and tests' support).
        let libraries = Set(
            manifest.targets.filter { $0.type == "regular" && $0.path == nil && !$0.name.hasPrefix("C") }.map(
                \.name))
        var direct: [String: Set<String>] = [:]
        for target in manifest.targets where target.type == "regular" {
            // Each dependency is {"byName" | "target" | "product": [name, …]}.
            direct[target.name] = Set(target.dependencies.compactMap { $0.values.first?.first??.string })
        }
        func reachable(from name: String) -> Set<String> {
            var seen = Set<String>()
            var pending = Array(direct[name] ?? [])
            while let next = pending.popLast() {
                if seen.insert(next).inserted { pending += direct[next] ?? [] }
            }
            return seen
        }
        var graph: [String: Set<String>] = [:]
        for (name, dependencies) in direct where libraries.contains(name) {
            graph[name] = dependencies.filter { dependency in
                !dependencies.contains { $0 != dependency && reachable(from: $0).contains(dependency) }
            }
        }
        return graph
    }

    /// The graph in the README's list: `Module → A, B` lines in its `text` block.
    static func documentedGraph() throws -> [String: Set<String>] {
        let readme = try String(contentsOf: root.appendingPathComponent("Sources/README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## What each module builds on").last)
        let block = try #require(section.components(separatedBy: "```text\n").dropFirst().first)
        var graph: [String: Set<String>] = [:]
        for line in block.components(separatedBy: "```")[0].split(separator: "\n") {
            let sides = line.components(separatedBy: "→")
            try #require(sides.count == 2, "not `Module → dependencies`: \(line)")
            let name = sides[0].trimmingCharacters(in: .whitespaces)
            graph[name] = Set(
                sides[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.hasPrefix("(") })
        }
        return graph
    }

    @Test func theReadmesModuleGraphIsTheManifests() throws {
        let declared = try Self.declaredGraph()
        let documented = try Self.documentedGraph()
        #expect(declared.count > 8)
        for name in Set(declared.keys).union(documented.keys).sorted() {
            #expect(
                documented[name] == declared[name],
                "\(name): README \(documented[name] ?? []), Package.swift \(declared[name] ?? [])")
        }
    }
}

/// Any JSON value, of which only strings are read.
private struct AnyCodable: Decodable {
    var string: String?

    init(from decoder: any Decoder) throws {
        string = try? decoder.singleValueContainer().decode(String.self)
    }
}
