#!/usr/bin/env bash
# The converters (docs/decisions/converters.md) run Debian's LibreOffice (headless, no GUI), poppler and tesseract.
# Install them when one is missing (needs root, as on CI); a machine that has them all returns at once.
set -euo pipefail
# libreoffice-draw-nogui: the Visio import (libwpftdrawlo.so, libvisio) a .vsdx needs; impress pulls it in today, named
# here because the chains' .vsdx files depend on it.
PACKAGES=(libreoffice-core-nogui libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-draw-nogui poppler-utils tesseract-ocr tesseract-ocr-eng)
if command -v soffice >/dev/null && command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null \
  && command -v pdfinfo >/dev/null && command -v tesseract >/dev/null && command -v prlimit >/dev/null \
  && [ -d /usr/lib/libreoffice/program ] && ls /usr/lib/libreoffice/program/libswlo.so >/dev/null 2>&1 \
  && ls /usr/lib/libreoffice/program/libsdlo.so >/dev/null 2>&1 \
  && ls /usr/lib/libreoffice/program/libwpftdrawlo.so >/dev/null 2>&1 \
  && ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "The converters need: sudo apt-get install --no-install-recommends ${PACKAGES[*]}" >&2
  exit 1
fi
echo "Installing the converters (LibreOffice headless, poppler, tesseract)…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
