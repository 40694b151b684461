#!/usr/bin/env bash
# The main job: sets up, builds pkg/, audits the sample log of model
# responses (examples/audit/) with the package's command line, then guards a
# scripted model over the built-in sample responses (examples/samples.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node pkg/cli.mjs audit --schema examples/audit/schema.json examples/audit/responses.jsonl
echo
node examples/demo.mjs
