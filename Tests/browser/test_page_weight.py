"""The default theme's script and stylesheet stay under 12 KB gzipped."""
import gzip

from conftest import ROOT


def test_theme_js_and_css_are_under_12_kb_gzipped():
    total = sum(len(gzip.compress((ROOT / "templates" / name).read_bytes(), compresslevel=9))
                for name in ("rowmotion.js", "rowmotion.css"))
    assert total < 12 * 1024, f"{total} bytes gzipped"
