import Diagnostics
import ArgumentParser
import Foundation
import SiteGenerator

@main
struct Rowmotion: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowmotion",
        abstract: "Replays list snapshot sequences as UIKit batch updates.",
        version: RowmotionVersion.string,
        subcommands: [Build.self, Serve.self, Diff.self, Check.self, Init.self]
    )

    /// Parses and runs, with the documented exit codes: 0 success, 1 an input
    /// has errors, 2 wrong usage (the parser's own default is 64).
    static func main() async {
        var command: any ParsableCommand
        // A mistyped subcommand ("buidl"): the parser only says the
        // argument is unexpected.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first) {
                let hint = KeySuggestions.hint(for: first, in: names)
                FileHandle.standardError.write(Data("Error: unknown command '\(first)'\(hint.isEmpty ? "; the commands are " + names.dropLast().joined(separator: ", ") : hint)\nSee 'rowmotion --help'.\n".utf8))
                Foundation.exit(2)
            }
        }
        do {
            command = try parseAsRoot()
        } catch {
            exitOnFailure(error)
        }
        do {
            // Still on the main thread, before any task starts another one.
            if command is Serve { Serve.blockStopSignals() }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            // Found by the command itself (a --step past the file's last
            // step): about that command, not the whole tool's usage.
            let name = type(of: command)._commandName
            FileHandle.standardError.write(Data("Error: \(error.message)\nSee 'rowmotion \(name) --help' for its options.\n".utf8))
            Foundation.exit(2)
        } catch {
            exitOnFailure(error)
        }
    }

    static func exitOnFailure(_ error: any Error) -> Never {
        if exitCode(for: error) == .validationFailure {
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
        exit(withError: error)
    }
}

/// Prints diagnostics to standard error, swiftc's way; under GitHub Actions
/// (or `ROWMOTION_DIAGNOSTICS=github`) each is also printed as a workflow
/// command, so the pull request shows it on the line it is about.
func report(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    var text = diagnostics.map(\.description).joined(separator: "\n") + "\n"
    let environment = ProcessInfo.processInfo.environment
    if environment["GITHUB_ACTIONS"] == "true" || environment["ROWMOTION_DIAGNOSTICS"] == "github" {
        text += diagnostics.map(GitHubAnnotation.line).joined(separator: "\n") + "\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
}

