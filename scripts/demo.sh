#!/usr/bin/env bash
# The main job: sets up, builds pkg/, and guards a scripted model over the
# built-in sample responses (examples/samples.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node examples/demo.mjs
