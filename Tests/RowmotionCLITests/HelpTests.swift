import Foundation
import Testing

/// What a new user reads first (issue 30, item 7): a mistyped command gets
/// the command it was likely meant to be, `build`'s usage line names its
/// options, and no option's help says its default twice.
@Suite struct HelpTests {
    @Test func aMistypedCommand_isAnsweredWithTheNearestOne() throws {
        let typo = try CLI.run("buidl")
        #expect(typo.status == 2)
        #expect(typo.stderr == "Error: unknown command 'buidl'; did you mean 'build'?\nSee 'rowmotion --help'.\n")
        let unknown = try CLI.run("frobnicate", "--strict")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("Error: unknown command 'frobnicate'; the commands are build, serve, diff, check, init\n"))
        // What is a command stays one.
        #expect(try CLI.run("help", "check").stdout.contains("USAGE: rowmotion check"))
    }

    @Test func buildsUsageLine_namesItsOptions() throws {
        let help = try CLI.run("build", "--help")
        #expect(help.stdout.contains("USAGE: rowmotion build [--site <folder>] [--examples <folder>] [--out <folder>] [--strict] [--baseline <revision>] [<other options>]"),
                "\(help.stdout)")
    }

    @Test(arguments: ["build", "serve", "check", "diff", "init"])
    func noOptionSaysItsDefaultTwice(command: String) throws {
        let help = try CLI.run(command, "--help").stdout
        // An option's entry runs from its line to the next option's.
        let entries = help.components(separatedBy: "\n  -").dropFirst()
        for entry in entries {
            let flat = entry.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.components(separatedBy: "default").count <= 2, "\(command): \(flat)")
        }
        #expect(!help.contains("(default: the current folder). (default: .)"))
    }
}
