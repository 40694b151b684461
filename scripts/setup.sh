#!/usr/bin/env bash
# Installs everything the build and the tests need, and nothing twice.
# Safe to run on a fresh machine and on one that already has it all. The
# installs that wait on the network or the disk (Debian's chromium, the npm
# dev dependencies) run while the one that needs the CPU (wasm-bindgen-cli,
# compiled from source) builds.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130 # must equal the wasm-bindgen pin in Cargo.toml

say() { printf '[setup] %s\n' "$*" >&2; }

pids=()
names=()
background() {
  local name=$1
  shift
  "$@" &
  pids+=($!)
  names+=("$name")
}

# The browser tests drive Debian's Chromium; a test tool's own browser
# download is never used.
install_chromium() {
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "not root: install the 'chromium' package to run the browser tests"
  fi
}
if [[ ! -x /usr/bin/chromium ]]; then
  say "installing Debian's chromium for the browser tests"
  background chromium install_chromium
fi

if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm dev dependencies"
  background npm npm ci --no-audit --no-fund --loglevel=error
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# Only the wasm-bindgen binary, without TLS (the package's test runner and
# its downloads are never used), unoptimised and without debug info: that
# build takes 3 CPU-minutes against 9 for the default install (all three
# binaries, rustls, opt-level 3), and the binary makes the same bindings,
# byte for byte, in 2.3 s instead of 0.5 s. Debug info was a sixth of the
# build (87 against 74 CPU-seconds on a fast machine) and nothing reads it.
if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about two minutes, once)"
  CARGO_PROFILE_DEV_DEBUG=false cargo install --quiet --debug --no-default-features --bin wasm-bindgen wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

status=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    say "installing ${names[$i]} failed"
    status=1
  fi
done
exit $status
