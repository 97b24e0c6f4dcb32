#!/bin/sh
# Installs the system packages Rowmotion's build and tests need, named as
# Debian names them, when they are missing: with apt-get on Debian and
# Ubuntu, with Homebrew on macOS (where each is mapped to its formula or
# cask; a package macOS already has needs nothing). Elsewhere it says exactly
# what to install and fails.
#
#   scripts/install-deps.sh libcmark-dev cmark chromium chromium-driver
#
# ROWMOTION_PLATFORM overrides `uname -s` (the tests fake macOS with it).
set -eu
platform=${ROWMOTION_PLATFORM:-$(uname -s)}

# The Homebrew name of a Debian package, "-" when macOS needs nothing.
brew_name() {
    case "$1" in
        libcmark-dev|cmark) echo cmark ;;
        nodejs) echo node ;;
        chromium) echo "--cask google-chrome" ;;
        chromium-driver) echo "--cask chromedriver" ;;
        python3|python3-venv) echo - ;;   # python3 with venv comes with the Xcode command line tools
        *) echo "$1" ;;
    esac
}

case "$platform" in
Linux)
    command -v dpkg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 || {
        echo "install-deps: no apt-get here; install these (Debian names) with your package manager: $*" >&2
        exit 1
    }
    missing=""
    for package in "$@"; do dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"; done
    [ -z "$missing" ] && exit 0
    echo "installing:$missing"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=600 $missing
    ;;
Darwin)
    command -v brew >/dev/null 2>&1 || {
        wanted=""
        for package in "$@"; do
            name=$(brew_name "$package")
            case "$wanted, " in *", $name, "*) continue ;; esac
            [ "$name" = - ] || wanted="$wanted, $name"
        done
        echo "install-deps: Homebrew (https://brew.sh) is needed to install${wanted#,}; or install them yourself" >&2
        exit 1
    }
    seen=" "
    for package in "$@"; do
        name=$(brew_name "$package")
        # Two Debian packages can be one formula (libcmark-dev and cmark).
        case "$seen" in *" $name "*) continue ;; esac
        seen="$seen$name "
        [ "$name" = - ] && continue
        case "$name" in
            --cask*) cask=${name#--cask }; brew list --cask "$cask" >/dev/null 2>&1 || { echo "installing: $cask"; brew install --cask "$cask"; } ;;
            *) brew list "$name" >/dev/null 2>&1 || { echo "installing: $name"; brew install "$name"; } ;;
        esac
    done
    ;;
*)
    echo "install-deps: $platform is not Debian or macOS; install these (Debian names): $*" >&2
    exit 1
    ;;
esac
