"""A fork's pull request checked out as CI checks it out (issue 42, items 1
and 3): a real git repository whose `.git/config` holds the token
actions/checkout keeps there, a base commit, and a pull request commit on
top. Every command CI runs on it (`build`, `build --baseline … --summary
--fail-on-changes`, `check`, `serve`) reads only the files git tracks, as
regular files, and writes nothing through a link the pull request commits.

Before: `site -> .git` (a link that stays inside the project) published
`.git/config` with the token as `_site/config`, and the review said no
page's text changed; `.build -> ../outside` wrote the build cache outside
the project."""
import os
import subprocess
import urllib.request

import pytest

from hostile_support import BINARY, run
from test_server_abuse import Served

TOKEN = "ghs_ROWMOTIONTOKEN42"


def git(folder, *arguments):
    return subprocess.run(["git", *arguments], cwd=folder, check=True, capture_output=True,
                          env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}).stdout


@pytest.fixture
def checkout(tmp_path):
    """main: a page showing an example; the token in .git/config as
    actions/checkout leaves it."""
    root = tmp_path / "repository"
    (root / "site").mkdir(parents=True)
    (root / "examples").mkdir()
    (root / "site" / "index.md").write_text("# Home\n\n```rowmotion\nexample: list.yml\n```\n")
    (root / "examples" / "list.yml").write_text("title: List\nsteps:\n  - items: [a, b]\n  - items: [b, a]\n")
    (root / ".gitignore").write_text("_site/\n.build/\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "http.https://github.com/.extraheader", f"AUTHORIZATION: basic {TOKEN}")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "main")
    return root


def pull_request(root, change):
    """The pull request: `change` applied to the work tree, committed."""
    change(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pull request")


def everything_under(folder):
    return [path for path in folder.rglob("*")] if folder.exists() else []


def assert_no_token_anywhere(root, *outputs):
    for output in outputs:
        text = output.stdout.decode(errors="replace") + output.stderr.decode(errors="replace")
        assert TOKEN not in text, text
    for path in everything_under(root / "_site") + everything_under(root.parent / "outside"):
        if path.is_file() and not path.is_symlink():
            assert TOKEN.encode() not in path.read_bytes(), f"{path} holds the token"
    for name in ["s.md", "report.json"]:
        if (root / name).exists():
            assert TOKEN.encode() not in (root / name).read_bytes()


def link_site_to_git(root):
    subprocess.run(["rm", "-rf", str(root / "site")], check=True)
    (root / "site").symlink_to(".git")


def test_site_linked_to_dot_git_is_refused_by_build_review_check_and_serve(checkout):
    pull_request(checkout, link_site_to_git)
    assert git(checkout, "ls-files", "-s", "site").startswith(b"120000")
    build = run(["build"], cwd=checkout)
    assert build.returncode == 1
    assert "site:1:1: error: 'site' is a symbolic link" in build.stderr.decode(), build.stderr.decode()
    assert not (checkout / "_site").exists()

    review = run(["build", "--baseline", "main~1", "--summary", "s.md", "--fail-on-changes"], cwd=checkout)
    assert review.returncode == 1, review.stderr.decode()
    assert "site:1:1: error: 'site' is a symbolic link" in review.stderr.decode()
    assert not (checkout / "_site").exists()
    # No summary says all is well.
    assert not (checkout / "s.md").exists() or b"no page's text changed" not in (checkout / "s.md").read_bytes()

    check = run(["check"], cwd=checkout)
    assert check.returncode == 1 and "site:1:1: error: 'site' is a symbolic link" in check.stderr.decode()

    server = Served(checkout)
    try:
        assert any("there is no site to serve until a build succeeds" in line for line in server.seen), server.seen
        for path in ["/config", "/index.html", "/HEAD"]:
            with pytest.raises(urllib.error.HTTPError) as answer:
                urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10)
            assert answer.value.code == 404
            assert TOKEN.encode() not in answer.value.read()
    finally:
        server.stop()
    assert_no_token_anywhere(checkout, build, review, check)


def test_a_base_revision_with_site_linked_to_dot_git_reads_nothing_of_dot_git(checkout):
    """The baseline is read from the revision's tree: a merged `site -> .git`
    is an error there, never the work tree's `.git`."""
    pull_request(checkout, link_site_to_git)
    git(checkout, "branch", "hostile-base")
    git(checkout, "checkout", "-q", "main~1")
    review = run(["build", "--baseline", "hostile-base", "--report", "report.json"], cwd=checkout)
    assert review.returncode == 0, review.stderr.decode()
    report = (checkout / "report.json").read_text()
    assert TOKEN not in report
    # The pages are all new against a base without a site folder of files.
    assert '"kind":"added"' in report.replace(" ", "") and "index.md" in report
    assert_no_token_anywhere(checkout, review)


@pytest.mark.parametrize("committed", [".build", ".build/rowmotion-cache", "_site", "reports"])
def test_a_committed_link_never_redirects_a_write(checkout, committed):
    outside = checkout.parent / "outside"
    outside.mkdir()

    def commit_link(root):
        link = root / committed
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(outside, link.parent))
        # A committed link in an ignored folder is committed all the same.
        git(root, "add", "-f", committed)

    pull_request(checkout, commit_link)
    arguments = ["build", "--report", "reports/r.json"] if committed == "reports" else ["build"]
    result = run(arguments, cwd=checkout)
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr
    assert f"error: '{committed}' is a symbolic link; inside the project Rowmotion writes only through folders" in stderr, stderr
    assert list(outside.iterdir()) == [], f"the build wrote outside the project: {list(outside.iterdir())}"
    assert_no_token_anywhere(checkout, result)


def test_new_files_not_yet_committed_still_build_and_ignored_ones_do_not(checkout):
    """The inputs are what git would track: a page written a minute ago is
    one, a page git ignores is not."""
    (checkout / "site" / "new.md").write_text("# New page\n")
    (checkout / "site" / "drafts").mkdir()
    (checkout / "site" / "drafts" / "secret.md").write_text("# Ignored\n")
    (checkout / ".gitignore").write_text("_site/\n.build/\nsite/drafts/\n")
    result = run(["build"], cwd=checkout)
    assert result.returncode == 0, result.stderr.decode()
    assert (checkout / "_site" / "new.html").exists()
    assert not (checkout / "_site" / "drafts").exists()
    # A tracked page deleted since is not an input either.
    (checkout / "site" / "new.md").unlink()
    (checkout / "examples" / "list.yml").unlink()
    (checkout / "site" / "index.md").write_text("# Home without the example\n")
    result = run(["build"], cwd=checkout)
    assert result.returncode == 0, result.stderr.decode()
    assert not (checkout / "_site" / "examples" / "list.html").exists()


def test_a_submodule_or_a_nested_repository_is_a_located_error(checkout, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.md").write_text(f"# {TOKEN}\n")
    git(other, "init", "-q")
    git(other, "add", "-A")
    git(other, "commit", "-qm", "other")
    git(checkout, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(other), "site/vendor")
    result = run(["build"], cwd=checkout)
    assert result.returncode == 1
    assert "site/vendor:1:1: error: this is a git submodule or a repository of its own" in result.stderr.decode(), result.stderr.decode()
    assert_no_token_anywhere(checkout, result)


@pytest.mark.parametrize("target", [".git", "/proc/self", "/"])
def test_serve_never_serves_through_a_committed_site_link(checkout, target):
    """Issue 42's attack round: a committed `_site -> .git` (or `/proc/self`,
    or `/`) was refused by the build, yet `serve` served what it leads to:
    the token, the server's environment, the machine's files."""
    def link_site(root):
        (root / "_site").symlink_to(target)
        git(root, "add", "-f", "_site")

    pull_request(checkout, link_site)
    process = subprocess.run([str(BINARY), "serve", "--port", "0"], cwd=checkout, capture_output=True, timeout=60,
                             env={**os.environ, "SECRET_ENV": TOKEN})
    assert process.returncode == 1, process.stdout.decode() + process.stderr.decode()
    assert "_site:1:1: error: '_site' is a symbolic link" in process.stderr.decode(), process.stderr.decode()
    assert TOKEN not in process.stdout.decode() + process.stderr.decode()
