import Foundation

/// The cache file read line by line without decoding it, and written again
/// with some lines replaced: what a build after an edit of a few pages
/// (`FullBuild.edit`) does with 20 MB of records it needs a few of.
extension BuildCache {
    /// A record's line as a read of the file found it (`unreadLines`): its
    /// key and its line (with its line feed), nothing decoded.
    struct Line: Sendable {
        var key: String
        var line: Range<Int>

        /// The line's tab-separated fields in `file`, its line feed left out.
        func fields(in file: [UInt8]) -> [Range<Int>] {
            let end = line.upperBound > line.lowerBound && file[line.upperBound - 1] == 10 ? line.upperBound - 1 : line.upperBound
            return file.withUnsafeBufferPointer { BuildCache.split($0, line.lowerBound..<end, at: 9) }
        }
    }

    /// `file` with each range of `replacing` (lines, none overlapping)
    /// replaced by its bytes, and `trailer` after the rest: as the parts to
    /// write one after the other (the runs between are the file's own bytes, not copied).
    static func patch(_ file: [UInt8], replacing: [(range: Range<Int>, bytes: [UInt8])], trailer: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var at = 0
        for (range, replacement) in replacing.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            parts += [file[at..<range.lowerBound], replacement[...]]
            at = range.upperBound
        }
        return parts + [file[at...], trailer[...]]
    }

    /// The file's first lines: the format, the inputs' key and counts with
    /// the site's stamp, and the seals (the site's, when every output of
    /// `outputs`, the entries', has its file's stamp).
    func headerLines(outputs: [String], siteSeal known: String? = nil) -> [UInt8] {
        let siteSeal = known ?? (written.isEmpty || !outputs.allSatisfy({ written[$0] != nil }) ? nil : SiteFolder.seal(of: written))
        return Array((Self.format + "\n" + "inputs \(inputKey ?? "-") \(pageCount) \(exampleCount) \(siteStamp ?? "-")\n"
                      + "sealed\t\(inputsSeal ?? "-")\t\(siteSeal ?? "-")\t\(outputs.count)\n").utf8)
    }

    /// The file's own lines after its records: the outputs' shared key and when its files were seen.
    var trailerLines: [UInt8] {
        Array(((globalKey.map { "global\t\($0)\n" } ?? "") + "files-seen-at\t\(filesSeenAt)\n").utf8)
    }
}
