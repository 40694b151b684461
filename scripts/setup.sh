#!/usr/bin/env bash
# Installs everything the build and the tests need, and nothing twice.
# Safe to run on a fresh machine and on one that already has it all.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130 # must equal the wasm-bindgen pin in Cargo.toml

say() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# The browser tests drive Debian's Chromium; a test tool's own browser
# download is never used.
if [[ ! -x /usr/bin/chromium ]]; then
  say "installing Debian's chromium for the browser tests"
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    say "not root: install the 'chromium' package to run the browser tests"
  fi
fi

if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm dev dependencies"
  npm ci --no-audit --no-fund
fi
