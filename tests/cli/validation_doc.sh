#!/usr/bin/env bash
# docs/validation.md is the scorecard of the experiment files in the tree:
# the SHA-256 it records over experiments/*.yaml must be the files' hash
# now (scripts/validate-full.sh writes both). A changed, added or removed
# experiment file without a regenerated docs/validation.md fails here.
#   validation_doc.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
src=$2
cd "$src"
doc=docs/validation.md
[ -f "$doc" ] || { echo "$doc is missing: run scripts/validate-full.sh"; exit 1; }
want=$(sed -n 's/^- Experiment files: SHA-256 `\([0-9a-f]\{64\}\)`.*/\1/p' "$doc")
[ -n "$want" ] || { echo "$doc records no experiment-file hash (a line '- Experiment files: SHA-256 \`...\`')"; exit 1; }
have=$(bash scripts/validate-full.sh --hash)
if [ "$want" != "$have" ]; then
	echo "$doc was made from other experiment files (its hash $want, experiments/*.yaml now $have): run scripts/validate-full.sh and commit docs/validation.md"
	exit 1
fi
echo ok
