#!/usr/bin/env bash
# Installs aligndb's Debian 12 build dependencies and builds it in ./build (Release).
# Usage: tools/setup.sh            (run as root, or with sudo available)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  g++ cmake ninja-build pkg-config
  librocksdb-dev libxapian-dev libeigen3-dev
  libprotobuf-dev protobuf-compiler
  libcli11-dev libgtest-dev nlohmann-json3-dev
  libbz2-dev libicu-dev libexpat1-dev libxml2-dev libxxhash-dev liblemon-dev
  libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev
  bzip2 python3
  pybind11-dev python3-dev python3-pytest python3-pandas
  libsimdjson-dev libjemalloc-dev
  lbzip2 bc  # bench/*.sh: reference decompression times, arithmetic
  wordnet-base
  chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
cmake --build build >&2
