#!/usr/bin/env bash
# The e2e tests drive Debian's Chromium (/usr/bin/chromium). Install it when missing (needs root, as on CI).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "Chromium is missing at $CHROMIUM: install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
echo "Installing Debian's chromium for the e2e tests…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-liberation >/dev/null
