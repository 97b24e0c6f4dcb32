"""A pull request from a fork is hostile input (issue 28): every file, folder,
link and theme file it adds. Each case is a reproduction of an attack that
worked before: the project is built as CI builds it (`rowmotion build
--strict`, `rowmotion check`), and nothing from outside the project may be
read, published or quoted, and nothing the pull request adds may satisfy a
gate."""
import os
import time
import subprocess

import pytest

from hostile_support import run

SECRET = "ROWMOTION-SECRET-7f3a91"


def git(folder, *arguments):
    subprocess.run(["git", *arguments], cwd=folder, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


@pytest.fixture
def outside(tmp_path):
    """A folder beside the project with secrets in every form a build reads."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "index.md").write_text(f"# {SECRET}\n")
    (folder / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
    (folder / "secret.yml").write_text(f"title: {SECRET}\nsteps:\n  - items: [a]\n")
    (folder / "secret.txt").write_text(SECRET + "\n")
    (folder / "rowmotion.css").write_text(f"/* {SECRET} */\n")
    return folder


def project(tmp_path, in_git):
    """A small valid project: one page showing one example."""
    root = tmp_path / "project"
    (root / "site").mkdir(parents=True)
    (root / "examples").mkdir()
    (root / "site" / "index.md").write_text("# Home\n\n```rowmotion\nexample: list.yml\n```\n")
    (root / "examples" / "list.yml").write_text("title: List\nsteps:\n  - items: [a, b]\n  - items: [b, a]\n")
    if in_git:
        git(root, "init", "-q", "-b", "main")
    return root


def assert_nothing_leaked(root, result):
    output = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    assert SECRET not in output, output
    site = root / "_site"
    if site.exists():
        for path in site.rglob("*"):
            if path.is_file() and not path.is_symlink():
                assert SECRET.encode() not in path.read_bytes(), f"{path} publishes a file from outside the project"


def replace_with_link(path, target):
    if path.is_dir():
        for child in path.iterdir():
            child.unlink()
        path.rmdir()
    elif path.exists():
        path.unlink()
    path.symlink_to(target)


@pytest.mark.parametrize("in_git", [True, False], ids=["git", "no-git"])
@pytest.mark.parametrize("folder", ["site", "examples", "templates"])
@pytest.mark.parametrize("target", ["outside", ".git", "docs"])
def test_an_input_folder_that_is_a_symbolic_link_is_a_located_error_wherever_it_leads(tmp_path, outside, folder, in_git, target):
    """A link is refused for what it is, not for where it leads: `site ->
    .git` stays inside the project and published `.git/config` (issue 42)."""
    root = project(tmp_path, in_git)
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Docs\n")
    replace_with_link(root / folder, outside if target == "outside" else target if in_git or target != ".git" else "docs")
    result = run(["build", "--strict"], cwd=root)
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr
    assert f"{folder}:1:1: error: '{folder}' is a symbolic link; a build reads only the files git tracks" in stderr, stderr
    assert not (root / "_site").exists()
    assert_nothing_leaked(root, result)
    checked = run(["check"], cwd=root)
    assert checked.returncode == 1 and f"{folder}:1:1: error: '{folder}' is a symbolic link" in checked.stderr.decode(), checked.stderr.decode()
    assert_nothing_leaked(root, checked)


@pytest.mark.parametrize("theme_file, target", [
    ("rowmotion.css", "/proc/self/environ"),
    ("rowmotion.js", "/etc/passwd"),
    ("rowmotion.css", "OUTSIDE/rowmotion.css"),
    ("page.mustache", "OUTSIDE/secret.txt"),
    ("nav.mustache", "OUTSIDE/secret.txt"),
    # Inside the templates folder, and inside the project, alike.
    ("rowmotion.css", "parts/mine.css"),
    ("page.mustache", "../.git/config"),
])
def test_a_theme_file_that_is_a_symbolic_link_is_never_read(tmp_path, outside, theme_file, target):
    root = project(tmp_path, in_git=True)
    (root / "templates" / "parts").mkdir(parents=True)
    (root / "templates" / "parts" / "mine.css").write_text("body{color:#123456}\n")
    (root / "templates" / theme_file).symlink_to(target.replace("OUTSIDE", str(outside)))
    environment = {**os.environ, "ROWMOTION_CI_TOKEN": SECRET}
    result = run(["build", "--strict"], cwd=root, env=environment)
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr
    assert f"templates/{theme_file}:1:1: error: this file is a symbolic link; a build reads only regular files" in stderr, stderr
    assert not (root / "_site").exists()
    assert_nothing_leaked(root, result)
    # No stylesheet or script holds a line of the host's files either.
    assert "root:x:0:0" not in stderr


def test_an_example_or_page_that_is_a_symbolic_link_is_an_error_in_build_and_check(tmp_path, outside):
    root = project(tmp_path, in_git=True)
    (root / "examples" / "leak.yml").symlink_to(outside / "secret.yml")
    (root / "site" / "leak.md").symlink_to(outside / "secret.md")
    (root / "site" / "leak.txt").symlink_to(outside / "secret.txt")
    (root / "site" / "inside.md").symlink_to("index.md")
    result = run(["build", "--strict"], cwd=root)
    stderr = result.stderr.decode()
    assert result.returncode == 1
    for name in ["examples/leak.yml", "site/leak.md", "site/leak.txt", "site/inside.md"]:
        assert f"{name}:1:1: error: this file is a symbolic link" in stderr, stderr
    assert_nothing_leaked(root, result)
    checked = run(["check"], cwd=root)
    assert checked.returncode == 1
    assert "examples/leak.yml:1:1: error: this file is a symbolic link" in checked.stderr.decode()
    assert_nothing_leaked(root, checked)


def test_folders_named_on_the_command_line_inside_the_project_build_but_never_through_a_link(tmp_path):
    root = project(tmp_path, in_git=True)
    (root / "docs").mkdir()
    (root / "site").rename(root / "docs" / "pages")
    result = run(["build", "--strict", "--site", "docs/pages"], cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    # A link inside the project is a file of the pull request's: it could
    # lead to `.git` as well as to the pages.
    (root / "more").symlink_to("docs/pages")
    linked = run(["build", "--strict", "--site", "more", "--out", "_other"], cwd=root)
    assert linked.returncode == 1 and "more:1:1: error: 'more' is a symbolic link" in linked.stderr.decode(), linked.stderr.decode()
    (root / "docs" / "linked").symlink_to("pages")
    through = run(["build", "--strict", "--site", "docs/linked/", "--out", "_other"], cwd=root)
    assert through.returncode == 1 and "error: 'docs/linked' is a symbolic link" in through.stderr.decode(), through.stderr.decode()


@pytest.mark.parametrize("in_git", [True, False], ids=["git", "no-git"])
def test_a_named_pipe_among_the_inputs_is_an_error_or_not_an_input_never_a_hang(tmp_path, in_git):
    """Outside git a pipe is refused when read; in a git work tree it is not
    an input at all (git would not track it)."""
    root = project(tmp_path, in_git=in_git)
    os.mkfifo(root / "examples" / "pipe.yml")
    os.mkfifo(root / "site" / "pipe.md")
    result = run(["build"], cwd=root, timeout=30)
    stderr = result.stderr.decode()
    if in_git:
        assert result.returncode == 0, stderr
        assert not (root / "_site" / "pipe.html").exists() and not (root / "_site" / "examples" / "pipe.html").exists()
        return
    assert result.returncode == 1
    assert "examples/pipe.yml:1:1: error: cannot read the file: it is a named pipe (FIFO), not a regular file" in stderr, stderr
    assert "site/pipe.md:1:1: error: cannot read the file: it is a named pipe (FIFO), not a regular file" in stderr, stderr


def strict_failure_project(tmp_path):
    """A project whose strict build fails: a page with a broken link."""
    root = project(tmp_path, in_git=True)
    (root / "site" / "broken.md").write_text("# Broken\n\nSee [the missing page](missing.md).\n")
    (root / ".gitignore").write_text(".build/\n_site/\n")
    return root


def test_a_committed_cache_and_site_cannot_pass_a_strict_build(tmp_path):
    """The gate: a pull request commits `.build/rowmotion-cache/` and `_site/`
    from a build whose diagnostics it emptied. A fresh clone's strict build
    must still find the broken link, not take the forged cache's word."""
    root = strict_failure_project(tmp_path)
    first = run(["build"], cwd=root)
    assert first.returncode == 0 and b"missing.md" in first.stderr, first.stderr.decode()
    caches = list((root / ".build" / "rowmotion-cache").glob("*.cache"))
    assert len(caches) == 1
    # Forged: every diagnostic the store holds names another page (the same
    # length, so the store still reads): a build that took its word would
    # report that page, not the missing one.
    store = caches[0].read_bytes()
    assert b"missing.md" in store
    caches[0].write_bytes(store.replace(b"missing.md", b"elsewhere!"))
    git(root, "add", "-A")
    git(root, "add", "-f", ".build/rowmotion-cache", "_site")
    git(root, "commit", "-qm", "a forged cache and site")
    # CI checks the pull request out at the same path every time (the cache
    # file is named after the output's path): clone it where it was.
    original = tmp_path / "original"
    root.rename(original)
    clone = root
    subprocess.run(["git", "clone", "-q", str(original), str(clone)], check=True)
    assert list((clone / ".build" / "rowmotion-cache").glob("*.cache")) and (clone / "_site" / ".rowmotion-site").exists()
    result = run(["build", "--strict"], cwd=clone)
    stderr = result.stderr.decode()
    assert result.returncode == 1, f"a forged cache passed the strict build: {stderr}"
    assert "site/broken.md:3:" in stderr and "missing.md" in stderr and "elsewhere!" not in stderr, stderr


def test_links_left_in_the_old_site_are_neither_kept_nor_followed(tmp_path, outside):
    root = project(tmp_path, in_git=True)
    assert run(["build"], cwd=root).returncode == 0
    site = root / "_site"
    (site / "index.html").unlink()
    (site / "index.html").symlink_to(outside / "secret.txt")
    (site / "leak.txt").symlink_to(outside / "secret.txt")
    (site / "folder").symlink_to(outside)
    for arguments in (["build"], ["build", "--no-cache"]):
        result = run(arguments, cwd=root)
        assert result.returncode == 0, result.stderr.decode()
        links = [path for path in site.rglob("*") if path.is_symlink()]
        assert not links, f"{arguments}: the new site keeps links {links}"
        assert b"Home" in (site / "index.html").read_bytes()
        assert_nothing_leaked(root, result)


def test_a_page_named_like_a_script_url_is_a_path_in_search_results(tmp_path):
    """Issue 28, item 10: a page `javascript:…md` at the site's root was a
    `javascript:` link among the search results of the home page."""
    from chrome import new_browser
    root = project(tmp_path, in_git=True)
    (root / "site" / "javascript:window.__pwned=41;0.md").write_text("# Zebracorn\n\nThe zebracorn page.\n")
    result = run(["build"], cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    browser = new_browser(window_size="1200,900")
    try:
        browser.get((root / "_site" / "index.html").as_uri())
        hrefs = browser.execute_script("""
            const input = document.querySelector('form[data-rowmotion-search] input');
            input.focus();
            input.value = 'zebracorn';
            input.dispatchEvent(new Event('input'));
            return new Promise(done => setTimeout(() =>
              done([...document.querySelectorAll('form[data-rowmotion-search] ol a')].map(a => a.href)), 1500));""")
        assert hrefs and all(href.startswith("file:") for href in hrefs), hrefs
        browser.execute_script("document.querySelector('form[data-rowmotion-search] ol a').click()")
        time.sleep(1)
        assert browser.execute_script("return window.__pwned") is None
        assert browser.current_url.startswith("file:"), browser.current_url
    finally:
        browser.quit()


@pytest.mark.parametrize("in_git", [True, False], ids=["git", "no-git"])
@pytest.mark.parametrize("name", ["\\\\evil.example\\x.md", "a\\b.md", "tab\there.md", "bell\x07.yml"])
def test_a_file_whose_name_a_browser_reads_as_another_address_is_a_located_error(tmp_path, in_git, name):
    """Issue 42, item 11: a page named `\\\\evil.example\\x.md` was linked
    from the navigation and search as `\\\\evil.example\\x.html`, which a
    browser reads as `//evil.example/x.html`: another host."""
    root = project(tmp_path, in_git)
    folder = "examples" if name.endswith(".yml") else "site"
    (root / folder / name).write_text("# Evil\n" if folder == "site" else "steps:\n  - items: [a]\n")
    result = run(["build"], cwd=root)
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr
    assert "error: this file's name is not UTF-8, has a backslash or a control character" in stderr, stderr
    assert "\x07" not in stderr and "\t" not in stderr.split("error:")[0], "the name is written as terminal-safe text"
    site = root / "_site"
    assert not site.exists() or not any(b"evil.example" in path.read_bytes() for path in site.rglob("*") if path.is_file())


def test_a_file_named_on_the_command_line_inside_the_project_is_never_read_through_a_link(tmp_path, outside):
    """`rowmotion check examples/*.yml` names the pull request's files
    through a glob: inside the project a named file is held to every
    input's rules; outside it, it is the user's own and a link is followed."""
    root = project(tmp_path, in_git=True)
    (root / "examples" / "leak.yml").symlink_to(outside / "secret.yml")
    for arguments in (["check", "examples/leak.yml"], ["diff", "examples/leak.yml"], ["check", "examples/list.yml", "examples/leak.yml"]):
        result = run(arguments, cwd=root)
        assert result.returncode == 1, (arguments, result.stderr.decode())
        assert "examples/leak.yml:1:1: error: this file is a symbolic link" in result.stderr.decode(), result.stderr.decode()
        assert_nothing_leaked(root, result)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "list.yml").symlink_to(root / "examples" / "list.yml")
    followed = run(["diff", str(tmp_path / "mine" / "list.yml")], cwd=root)
    assert followed.returncode == 0, followed.stderr.decode()


@pytest.mark.parametrize("in_git", [True, False], ids=["git", "no-git"])
def test_names_that_are_the_same_text_or_not_text_or_the_same_but_for_case_are_located_errors(tmp_path, in_git):
    """Issue 42's attack round: a page named in NFC beside the same name in
    NFD, and a name whose bytes are not UTF-8, were dropped without a word;
    `A.md` beside `a.md` would replace one another where case does not count."""
    root = project(tmp_path, in_git)
    (root / "site" / "caf\u00e9.md").write_text("# Composed\n")
    (root / "site" / "cafe\u0301.md").write_text("# Decomposed\n")
    os.makedirs(root / "examples", exist_ok=True)
    with open(os.path.join(os.fsencode(root / "site"), b"bad-\xff.md"), "w") as bad:
        bad.write("# Not UTF-8\n")
    result = run(["build"], cwd=root)
    stderr = result.stderr.decode(errors="replace")
    assert result.returncode == 1, stderr
    assert "error: this file's name is the same text as another file's" in stderr, stderr
    assert "error: this file's name is not UTF-8" in stderr, stderr
    for path in (root / "site").iterdir():
        if path.name != "index.md":
            path.unlink()
    (root / "site" / "Guide.md").write_text("# Upper\n")
    (root / "site" / "guide.md").write_text("# Lower\n")
    (root / "site" / "Changes.md").write_text("# Named like the review\n")
    cased = run(["build"], cwd=root)
    assert cased.returncode == 1
    assert "site/guide.md:1:1: error: this file becomes 'guide.html' and 'site/Guide.md' becomes 'Guide.html': they differ only in case" \
        in cased.stderr.decode(), cased.stderr.decode()
    git(root, "init", "-q", "-b", "main") if not in_git else None
    (root / "site" / "Guide.md").unlink()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    review = run(["build", "--baseline", "HEAD"], cwd=root)
    assert review.returncode == 1 and "becomes changes.html, which --baseline writes" in review.stderr.decode(), review.stderr.decode()


def test_broken_links_in_an_examples_description_fail_a_strict_build_and_md_links_are_rewritten(tmp_path):
    """Issue 42's attack round: `--strict` passed an example whose
    description linked nowhere, and published the link as written."""
    root = project(tmp_path, in_git=True)
    (root / "examples" / "list.yml").write_text(
        'title: List\ndescription: "See [the home page](../index.md), [nothing](no-such-page.md) and ![a shot](no-such.png)"\n'
        "steps:\n  - items: [a, b]\n  - items: [b, a]\n")
    result = run(["build", "--strict"], cwd=root)
    stderr = result.stderr.decode()
    assert result.returncode == 1
    assert "examples/list.yml:1:1: warning: the description links to 'no-such-page.md', which is not a page or file of the site" in stderr, stderr
    assert "examples/list.yml:1:1: warning: the description links to 'no-such.png'" in stderr, stderr
    assert "index.md" not in stderr.replace("site/index.md", "")
    lenient = run(["build"], cwd=root)
    assert lenient.returncode == 0
    assert b'href="../index.html"' in (root / "_site" / "examples" / "list.html").read_bytes()


@pytest.mark.parametrize("in_git", [True, False])
def test_a_file_inside_a_folder_that_is_another_output_is_a_located_error_in_check_and_build(tmp_path, in_git):
    """Attack round 2: `site/b.html/y.txt` beside the page `site/b.md`, a
    folder named like the search index or an example's filmstrip, and an
    alias `/a.js/` beside `site/a.js` passed `check` and failed the build
    with "cannot write 'b.html'" located at the output folder."""
    root = project(tmp_path, in_git)
    for folder, name in (("b.html", "y.txt"), ("search-index.js", "p.txt"), ("examples/list.svg", "p.txt")):
        (root / "site" / folder).mkdir(parents=True)
        (root / "site" / folder / name).write_text("x\n")
    (root / "site" / "b.md").write_text("# B\n")
    (root / "site" / "a.js").write_text("// a\n")
    (root / "site" / "x.md").write_text("---\naliases: [/a.js/]\n---\n# X\n")
    if in_git:
        git(root, "add", "-A")
    for command in (["check"], ["build"]):
        result = run(command, cwd=root)
        stderr = result.stderr.decode()
        assert result.returncode == 1, stderr
        assert "site/b.html/y.txt:1:1: error: this file becomes 'b.html/y.txt', inside 'b.html', which 'site/b.md' becomes" in stderr, stderr
        assert "site/search-index.js/p.txt:1:1: error: this file becomes 'search-index.js/p.txt', inside 'search-index.js', which is the site's search index" \
            in stderr, stderr
        assert "site/examples/list.svg/p.txt:1:1: error: this file becomes 'examples/list.svg/p.txt', inside 'examples/list.svg', which 'examples/list.yml' becomes" \
            in stderr, stderr
        assert "site/x.md:2:11: error: the alias '/a.js/' names a.js/index.html, inside a.js, which is a file of the site" in stderr, stderr
    assert not (root / "_site").exists()


def test_a_file_or_alias_where_the_review_writes_is_a_located_error_with_a_baseline(tmp_path):
    """Attack round 3: with --baseline, `site/changes.html/x.png`, a file
    `site/changes` and aliases under `changes/` failed unlocated ("cannot
    write 'changes.html'") or silently lost to the review's own files, and
    `site/changes/list.before.svg` (the baseline filmstrip's path) was
    replaced without a word."""
    root = project(tmp_path, True)
    git(root, "add", "-A")
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=T", "commit", "-qm", "base")
    cases = {
        "site/changes.html/x.png": "site/changes.html/x.png:1:1: error: this file becomes 'changes.html/x.png', inside 'changes.html', which is the review's page (--baseline)",
        "site/changes": "site/changes:1:1: error: this file becomes 'changes', which is the review's folder of the baseline's filmstrips (--baseline)",
        "site/changes/list.before.svg": "site/changes/list.before.svg:1:1: error: this file becomes 'changes/list.before.svg', inside 'changes', which is the review's folder",
    }
    for path, message in cases.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("x\n")
        git(root, "add", "-A")
        result = run(["build", "--baseline", "HEAD"], cwd=root)
        stderr = result.stderr.decode()
        assert result.returncode == 1 and message in stderr, stderr
        git(root, "rm", "-rqf", "--cached", path)
        (root / path).unlink()
        if path.startswith("site/changes/") or path.startswith("site/changes.html/"):
            (root / path).parent.rmdir()
    (root / "site" / "x.md").write_text("---\naliases: [/changes/list.before.svg, /changes.html/x/]\n---\n# X\n")
    git(root, "add", "-A")
    result = run(["build", "--baseline", "HEAD"], cwd=root)
    stderr = result.stderr.decode()
    assert "site/x.md:2:11: error: the alias '/changes/list.before.svg' names changes/list.before.svg, where `--baseline` writes the review" in stderr, stderr
    assert "error: the alias '/changes.html/x/' names changes.html/x/index.html, where `--baseline` writes the review" in stderr, stderr
