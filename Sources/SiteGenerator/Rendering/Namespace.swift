/// Rendering, the stage after loading: each page, example page and the
/// index from the loaded inputs to bytes (reused from the cache when their
/// key has not changed).
enum SiteRendering {}
