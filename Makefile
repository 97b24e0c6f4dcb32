# Rowmotion — the two commands of README's Quick start, and their helpers.
# Each target installs what it needs (Debian packages, the Python venv) when
# it is missing, so a fresh Debian machine with only Swift can run them.

SWIFT  ?= swift
PYTHON ?= python3
VENV   := .venv
# Debian packages the build and the tests always need (cmark: the plain
# converter the CommonMark spec comparison checks pages against).
APT_PACKAGES := libcmark-dev cmark

.PHONY: site test fuzz install build release deps check-portability venv node browser commonmark-spec bench bench-page clean

## Build the tool, then the site: site/ and examples/ into _site/ with the
## default theme (a project's templates/ overrides it file by file). Strict:
## a warning (a broken link, an example no page shows, a step that breaks
## one of UIKit's rules) fails the build and leaves the previous _site/ as it was.
site: deps release
	.build/release/rowmotion diff examples/messenger.yml --format replay --step 1 > site/images/replay.svg
	.build/release/rowmotion build --strict

## Everything CI checks: every target built, the Swift tests (engine, file
## format, site generator, command line), a strict build of the site
## (warnings are errors) written aside, the player's JavaScript model
## replaying that site's examples and 2,000 random sequences against the
## engine, the JSON Schema tests, the check that Linux-only code stays behind
## #if os(Linux) (users build on macOS too), the CommonMark spec's examples
## against Debian's cmark, a generated real-documentation corpus,
## the browser tests in a real headless Chromium, the hostile-input corpus
## and the server abuse tests (with a seeded share of their fuzz, and three
## hostile generators grown by doubling, each doubling at most 2.5 times the
## CPU and memory), and the SwiftPM plugin run in a fixture package.
test: deps build venv node browser commonmark-spec
	$(SWIFT) test
	.build/debug/rowmotion check --strict
	.build/debug/rowmotion build --strict --out .build/strict-site
	node --test Tests/js
	ROWMOTION_GROWTH_SECONDS=1.5 ROWMOTION_GROWTH_SHARE=3 ROWMOTION_GROWTH_FLOOR=0.2 \
		$(VENV)/bin/pytest -q Tests/schema Tests/scripts Tests/corpus Tests/browser Tests/hostile
	bash Tests/plugin/run.sh

## Not part of `test`: the seeded property test for 1,000,000 random
## sectioned pairs in release mode (diff, replay, the independent validator,
## minimal moves), 100,000 small edits in long sections (the same changeset
## as hashing every row, repeats still errors), then 20,000 random sequences through the player's model,
## then the hostile-input fuzz at full size: 5,000 mutated sequence files
## and 20,000 raw requests to `serve`, each process under a memory cap,
## and every hostile generator of Tests/hostile/test_linear_inputs.py (every
## input kind: Markdown, YAML/TOML/JSON, templates, links and fragments, demo
## blocks, baselines and reports) grown by doubling until a build takes 4 s
## of CPU, each doubling at most 2.5 times the CPU and memory,
## then 1,000 random player call sequences (and 500 on linked panes) and
## the frame checks on 200 random sequences in Chromium, then 150 random
## edits to pages and examples while `serve` runs (make test: 14).
## Each prints its cases per second, its seed, and every failure as a
## one-line replay command. Built aside (.build-fuzz) with testing enabled,
## so the release build `make site` uses stays as it is.
FUZZ_BUILD := --scratch-path .build-fuzz -c release -Xswiftc -enable-testing
fuzz: deps node
	$(SWIFT) build $(FUZZ_BUILD) --build-tests
	LISTDIFF_CASES=1000000 $(SWIFT) test $(FUZZ_BUILD) --skip-build --filter PropertyTests
	LISTDIFF_CASES=100000 $(SWIFT) test $(FUZZ_BUILD) --skip-build --filter OrderedRuns
	ROWMOTION_TEMPLATE_CASES=20000 $(SWIFT) test $(FUZZ_BUILD) --skip-build --filter CompiledTemplateTests
	for seed in 1 2 3 4 5; do ROWMOTION_FUZZ_SEED=$$seed ROWMOTION_EDIT_CASES=2000 $(SWIFT) test $(FUZZ_BUILD) --skip-build --filter randomEdits || exit 1; done
	ROWMOTION_BINARY=.build-fuzz/release/rowmotion ROWMOTION_JS_SEQUENCES=20000 node --test Tests/js/random-sequences.test.mjs
	$(MAKE) --no-print-directory venv
	ROWMOTION_BINARY=.build-fuzz/release/rowmotion ROWMOTION_FUZZ_FILES=5000 ROWMOTION_FUZZ_REQUESTS=20000 ROWMOTION_GROWTH_SECONDS=4 \
		$(VENV)/bin/pytest -q -s Tests/hostile -k fuzz
	$(MAKE) --no-print-directory build browser
	.build/debug/rowmotion build --strict --out .build/strict-site
	ROWMOTION_CALL_FUZZ=1000 ROWMOTION_FRAME_SEQUENCES=200 $(VENV)/bin/pytest -q Tests/browser/test_call_fuzz.py Tests/browser/test_frames.py
	ROWMOTION_SERVE_EDITS=150 $(VENV)/bin/pytest -q Tests/browser/test_serve.py -k fuzz

## The tool on your PATH: $(PREFIX)/bin/rowmotion (a release build).
PREFIX ?= /usr/local
install: deps release
	mkdir -p "$(PREFIX)/bin"
	install -m 755 .build/release/rowmotion "$(PREFIX)/bin/rowmotion"
	@echo "installed $(PREFIX)/bin/rowmotion"

## Every target and the tests, failing on a compiler warning in our own files.
build:
	bash scripts/build-without-warnings.sh $(SWIFT)

release:
	$(SWIFT) build -c release --product rowmotion

## The test venv, pinned by requirements-test.txt; remade when it changes.
venv: $(VENV)/.installed

$(VENV)/.installed: requirements-test.txt requirements-axe.txt
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || $(MAKE) --no-print-directory deps APT_PACKAGES="python3 python3-venv"
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-test.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -r requirements-axe.txt
	touch $@

## The CommonMark spec's examples (from marko's sdist on PyPI, pinned by
## hash in requirements-spec.txt), for Tests/corpus/test_commonmark_spec.py.
SPEC_DIR := .build/commonmark-spec
commonmark-spec: $(SPEC_DIR)/commonmark.txt

$(SPEC_DIR)/commonmark.txt: requirements-spec.txt | venv
	mkdir -p $(SPEC_DIR)
	$(VENV)/bin/pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: --require-hashes \
		-r requirements-spec.txt -d $(SPEC_DIR)
	tar -xzf $(SPEC_DIR)/marko-2.2.4.tar.gz -C $(SPEC_DIR) --strip-components=3 marko-2.2.4/tests/spec/commonmark.txt
	touch $@

## Node, for the player's JavaScript tests (Debian's nodejs when missing).
node:
	@command -v node >/dev/null 2>&1 || $(MAKE) --no-print-directory deps APT_PACKAGES="nodejs"

## Debian's chromium and chromium-driver (the same version), for the browser tests
## (Google Chrome and chromedriver from Homebrew on macOS; Tests/browser/conftest.py finds either.)
browser:
	@if [ "$$(uname -s)" = Darwin ]; then command -v chromedriver >/dev/null 2>&1 || $(MAKE) --no-print-directory deps APT_PACKAGES="chromium chromium-driver"; \
	else command -v chromium >/dev/null 2>&1 && [ -x /usr/bin/chromedriver ] || $(MAKE) --no-print-directory deps APT_PACKAGES="chromium chromium-driver"; fi

## ListDiff against the standard library (several minutes: the baseline
## takes seconds per run at 100,000 rows).
bench:
	$(SWIFT) run -c release rowmotion-bench

## Measure the engine and regenerate site/benchmarks.md (table and chart) from the figures,
## keeping the page's hand-written part (the site build's figures, the history).
bench-page:
	$(SWIFT) build -c release --product rowmotion
	$(SWIFT) run -c release rowmotion-bench --json > .build/bench.json
	$(SWIFT) run -c release rowmotion-bench scale --json --in $$([ -d /dev/shm ] && echo /dev/shm || echo .build) > .build/bench-scale.json
	python3 scripts/benchmark-page.py .build/bench.json site/benchmarks.md --scale .build/bench-scale.json

## Install the system packages that are missing, if any: apt-get on
## Debian, Homebrew on macOS (scripts/install-deps.sh maps the names).
deps:
	@sh scripts/install-deps.sh $(APT_PACKAGES)

## The check that no Linux-only API or path is used outside #if os(Linux)
## (part of `make test`, through Tests/scripts).
check-portability: venv
	$(VENV)/bin/pytest -q Tests/scripts/test_portability.py

clean:
	rm -rf .build _site $(VENV)
