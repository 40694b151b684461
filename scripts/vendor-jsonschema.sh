#!/usr/bin/env bash
# Rebuilds vendor/jsonschema: the published jsonschema crate with one patch
# (patches/jsonschema-*.patch). Run it after changing the pinned version or
# the patch; the result is committed so that a build needs nothing but Cargo.
#
# Why a patch: in wasm, jsonschema rebuilt the meta-schema validator for every
# schema it compiled (milliseconds each), which made every first check of a
# new schema slow. The patch keeps one per draft, as native builds already do.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.61.2
PATCH=patches/jsonschema-$VERSION-wasm-meta-cache.patch

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "fetch-jsonschema"
version = "0.0.0"
edition = "2021"
[dependencies]
jsonschema = { version = "=$VERSION", default-features = false }
TOML
mkdir -p "$scratch/src" && touch "$scratch/src/lib.rs"
cargo fetch --quiet --manifest-path "$scratch/Cargo.toml"
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/jsonschema-$VERSION | head -n 1)

rm -rf vendor/jsonschema
mkdir -p vendor/jsonschema
cp -r "$src/src" "$src/LICENSE" vendor/jsonschema/
# The published manifest names test and bench targets whose files are not
# vendored, and dev-dependencies and lints that only the crate's own
# development needs.
python3 - "$src/Cargo.toml" vendor/jsonschema/Cargo.toml <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sections = re.split(r'(?m)^(?=\[)', text)
drop = re.compile(r'^\[\[(test|bench)\]\]|^\[(target\.[^\]]*\.)?dev-dependencies|^\[lints')
kept = [s for s in sections if not drop.match(s)]
open(sys.argv[2], "w").write("".join(kept))
PY
patch --quiet -p1 -d vendor/jsonschema < "$PATCH"
cat > vendor/jsonschema/VENDORED.md <<MD
# jsonschema $VERSION, vendored with one patch

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on crates.io,
with \`$PATCH\` applied: wasm builds keep one meta-schema validator per draft
instead of building one for every schema compiled. Nothing else differs from
the published source except that the manifest drops test, bench,
dev-dependency and lint sections. MIT licensed (LICENSE).
MD
echo "vendor/jsonschema is jsonschema $VERSION with $PATCH"
