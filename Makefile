# Rowmotion — the two commands of README's Quick start, and their helpers.
# Each target installs what it needs (Debian packages, the Python venv) when
# it is missing, so a fresh Debian machine with only Swift can run them.

SWIFT        ?= swift
# Debian packages the build and the tests need (none yet beyond Swift).
APT_PACKAGES :=

.PHONY: site test build release deps bench clean

## Build the tool. (The site generator arrives with issue 4; until then
## `make site` builds the `rowmotion` executable and nothing else.)
site: deps release

## Everything CI checks: a debug build of every target and the Swift tests.
test: deps build
	$(SWIFT) test

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product rowmotion

## ListDiff against the standard library (several minutes: the baseline
## takes seconds per run at 100,000 rows).
bench:
	$(SWIFT) run -c release rowmotion-bench

## Install the Debian packages that are missing, if any.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=600 $$missing; \
	fi

clean:
	rm -rf .build _site
