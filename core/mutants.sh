#!/bin/bash
# cargo-mutants on the compiled core (docs/testing.md, "The compiled core (cargo-mutants)").
#
# The crate compiles the shipped models in from ../brass_stats/bots/value/, outside its directory,
# which the copy cargo-mutants makes of the crate would lack. So the crate and the two models are
# copied, in the repository's layout, to core/target/mutants-tree/ (its build kept between runs) and
# mutated in place there, one mutant at a time (as --jobs 1); the report is core/mutants.out/
# (git-ignored; the previous one moves to mutants.out.old).
#
# Usage, from anywhere: core/mutants.sh [--missed] [cargo-mutants options], e.g. the measured sample:
#   core/mutants.sh --shard 0/27 --sharding round-robin
# --missed: only the mutants the previous run missed, by name (its mutants.out/missed.txt).
set -euo pipefail
core=$(cd "$(dirname "$0")" && pwd)
tree="$core/target/mutants-tree"
models="$core/../brass_stats/bots/value"
args=()
if [ "${1:-}" = "--missed" ]; then
    shift
    while IFS= read -r name; do
        [ -n "$name" ] && args+=(-F "^$(printf '%s' "$name" | sed 's/[][\\.*^$(){}?+|]/\\&/g')\$")
    done <"$core/mutants.out/missed.txt"
    [ ${#args[@]} -gt 0 ] || { echo "nothing missed in $core/mutants.out/missed.txt"; exit 0; }
fi
rm -rf "$tree/core/src" "$tree/core/.cargo"
mkdir -p "$tree/core" "$tree/brass_stats/bots/value"
tar -C "$core" --exclude=./target --exclude='./mutants.out*' -cf - . | tar -C "$tree/core" -xf -
cp "$models/model.txt.gz" "$models/final_vp.txt.gz" "$tree/brass_stats/bots/value/"
cd "$tree/core"
exec cargo mutants --in-place --output "$core" "${args[@]}" "$@"
