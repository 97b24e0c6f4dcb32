/// Relative URLs made from file names, which anyone may choose.
enum RelativeURL {
    /// `path` as a link that can only be read as a path: a first segment
    /// with a colon (`javascript:x.svg`, from an example named
    /// `javascript:x.json`) would be read as a scheme, so it gets `./`
    /// before it. Paths with a `/` or nothing before the colon are left as
    /// they are.
    static func safe(_ path: String) -> String {
        guard let colon = path.firstIndex(of: ":") else { return path }
        if let slash = path.firstIndex(of: "/"), slash < colon { return path }
        return "./" + path
    }
}
