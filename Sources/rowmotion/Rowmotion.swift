import ArgumentParser
import ListDiff

@main
struct Rowmotion: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowmotion",
        abstract: "Replays list snapshot sequences as UIKit batch updates, in a static documentation site.",
        version: "0.1.0"
    )
}
