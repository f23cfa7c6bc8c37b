#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (playwright drives /usr/bin/chromium; it never
# downloads a browser of its own). Does nothing when Chromium is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-browser: Chromium is missing and this user cannot apt-get install it;" \
         "the browser tests will be skipped" >&2
    exit 0
  fi
fi
echo "install-browser: installing Debian's chromium (once)" >&2
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null
