#!/usr/bin/env bash
# Renders an aligndb report in headless Chromium (Debian's `chromium`) to a PNG, to check by eye
# that the page and its pictures show what they claim. No network is used.
# Usage: tools/render_report.sh REPORT_DIR/report.html OUT.png [HEIGHT]
set -euo pipefail
html="$(realpath "$1")"; png="$(realpath -m "$2")"; height="${3:-3200}"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size=1100,"$height" \
  --screenshot="$png" "file://$html" > /dev/null 2>&1
test -s "$png" && echo "$png"
