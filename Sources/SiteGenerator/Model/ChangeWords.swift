import SnapshotFormat

/// What a player is given differently besides its steps, in the words a
/// reviewer reads in a pull request: "animation fade → none", "duration 0.3
/// → 9.5 s", "style plain → insetGrouped"; for a demo block, which example
/// it shows and how it starts.
enum ChangeWords {
    /// UIKit's duration for a batch, which a sequence without `duration:`
    /// plays at (`templates/script/player.js` reads the same).
    static let defaultDuration = 0.3

    /// What an example shows differently besides its steps: the player's
    /// words, or, where the player replays the same, the snapshots' data.
    static func shown(from old: ExampleAnimation, to new: ExampleAnimation) -> [String] {
        if old.playsLike(new), !old.animatesLike(new) {
            return ["the snapshots' rows changed where no step reloads them (the player replays the same; the filmstrip draws the new rows)"]
        }
        return presentation(from: old.player, to: new.player)
    }

    static func presentation(from old: PlayerData, to new: PlayerData) -> [String] {
        var words: [String] = []
        let (a, b) = (old.animations, new.animations)
        if a != b {
            if a.insert == a.delete, a.delete == a.reload, b.insert == b.delete, b.delete == b.reload {
                words.append("animation \(a.insert) → \(b.insert)")
            } else {
                for (kind, from, to) in [("insert", a.insert, b.insert), ("delete", a.delete, b.delete), ("reload", a.reload, b.reload)] where from != to {
                    words.append("\(kind) animation \(from) → \(to)")
                }
            }
        }
        if old.cell != new.cell { words.append("cell \(old.cell ?? "fields in a line") → \(new.cell ?? "fields in a line")") }
        let (p, q) = (old.presentation, new.presentation)
        if p?.style != q?.style { words.append("style \(p?.style ?? "plain") → \(q?.style ?? "plain")") }
        func seconds(_ value: Double?) -> String { Presentation.text(value ?? defaultDuration) }
        if p?.duration != q?.duration { words.append("duration \(seconds(p?.duration)) → \(seconds(q?.duration)) s") }
        func spring(_ value: PlayerData.Framing.Spring?) -> String {
            value.map { "damping \(Presentation.text($0.damping)), velocity \(Presentation.text($0.velocity))" } ?? "none"
        }
        if p?.spring != q?.spring { words.append("spring \(spring(p?.spring)) → \(spring(q?.spring))") }
        func points(_ value: Double?) -> String { value.map { "\(Presentation.text($0)) pt" } ?? "the default" }
        if p?.height != q?.height { words.append("height \(points(p?.height)) → \(points(q?.height))") }
        if p?.width != q?.width { words.append("width \(points(p?.width)) → \(points(q?.width))") }
        words += layout(from: p, to: q)
        return words
    }

    /// A collection view's layout, said as the sequence file says it.
    static func layout(from p: PlayerData.Framing?, to q: PlayerData.Framing?) -> [String] {
        var words: [String] = []
        if p?.layout != q?.layout { words.append("layout \(p?.layout ?? "list") → \(q?.layout ?? "list")") }
        func count(_ value: Int?) -> String { value.map(String.init) ?? "the default" }
        if p?.columns != q?.columns { words.append("columns \(count(p?.columns)) → \(count(q?.columns))") }
        func points(_ value: Double?) -> String { value.map { "\(Presentation.text($0)) pt" } ?? "the default" }
        if p?.spacing != q?.spacing { words.append("spacing \(points(p?.spacing)) → \(points(q?.spacing))") }
        func list(_ value: [String]?) -> String { value.map { "[" + $0.joined(separator: ", ") + "]" } ?? "none" }
        if p?.fields != q?.fields { words.append("fields \(list(p?.fields)) → \(list(q?.fields))") }
        if p?.titles != q?.titles { words.append("column titles changed") }
        if p?.scroll != q?.scroll { words.append("scroll \(p?.scroll ?? "keep-offset") → \(q?.scroll ?? "keep-offset")") }
        func share(_ value: Double?) -> String { value.map { Presentation.text($0) } ?? "none" }
        if p?.skipAnimation != q?.skipAnimation { words.append("skipAnimation \(share(p?.skipAnimation)) → \(share(q?.skipAnimation))") }
        let (a, b) = (p?.sections ?? [:], q?.sections ?? [:])
        for id in Set(a.keys).union(b.keys).sorted() where a[id] != b[id] {
            func said(_ style: PlayerData.Framing.SectionLayout?) -> String {
                style.map { $0.layout + ($0.columns.map { ", \($0) columns" } ?? "") } ?? "the sequence's"
            }
            words.append("section ‘\(id)’ layout \(said(a[id])) → \(said(b[id]))")
        }
        return words
    }

    /// Which example a block shows, when that changed.
    static func source(from old: BuildReport.Block, to new: BuildReport.Block) -> [String] {
        func source(_ block: BuildReport.Block) -> String { block.shows.map { "‘\($0)’" } ?? "a sequence written in the block" }
        return old.shows == new.shows ? [] : ["shows \(source(new)) instead of \(source(old))"]
    }

    /// A block's own options: its first step, autoplay, its comparison pane.
    static func options(from old: BuildReport.Block, to new: BuildReport.Block) -> [String] {
        var words: [String] = []
        if old.step != new.step { words.append("starts at step \(new.step) (was \(old.step))") }
        if old.autoplay != new.autoplay { words.append(new.autoplay ? "now plays on load" : "no longer plays on load") }
        if old.compare != new.compare { words.append("comparison pane \(old.compare ?? "none") → \(new.compare ?? "none")") }
        return words
    }
}
