#!/usr/bin/env bash
# Set up a fresh Debian or Ubuntu machine for the test suite: the first half of the test command that
# README.md gives and .ci/run calls (`bash tests/setup.sh && python3 -m pytest -n auto`). It installs
# what the tests need that pip cannot (headless Chromium, from the system's package manager, only
# when missing), then the project with its dev extra.
set -euo pipefail

cd "$(dirname "$0")/.."

have_chromium() {
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}

if ! have_chromium; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "tests/setup.sh: the report and viewer tests need Chromium; install it with your package manager" >&2
    exit 2
  fi
  echo "tests/setup.sh: installing Chromium (apt-get install chromium)" >&2
  $sudo apt-get update -qq
  # Debian names the package chromium; Ubuntu's is chromium-browser
  $sudo apt-get install -y -qq chromium >/dev/null 2>&1 || $sudo apt-get install -y -qq chromium-browser >/dev/null
fi

python3 -m pip install -q -e '.[dev]'
