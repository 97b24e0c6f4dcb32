"""The default theme's script and stylesheet stay under 20 KB gzipped (12 KB until
issue 14 added the timeline model, scrubbing and the review controls)."""
import gzip

from conftest import ROOT


def test_theme_js_and_css_are_under_20_kb_gzipped():
    total = sum(len(gzip.compress((ROOT / "templates" / name).read_bytes(), compresslevel=9))
                for name in ("rowmotion.js", "rowmotion.css"))
    assert total < 20 * 1024, f"{total} bytes gzipped"
