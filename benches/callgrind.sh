#!/bin/sh
# Instructions per game of the engine bench's random games, counted by callgrind: a figure the
# machine's load does not move, to judge an engine change by (see benches/NOTES.md).
#
#   benches/callgrind.sh [full|flagged|classic ...]    (default: all three)
#
# Builds the bench (release, one job), then runs each batch once under callgrind, counting only
# the batch itself (`played_batch`: setup and play of every game, not the process start).
set -eu
cd "$(dirname "$0")/.."
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"
# Line tables (same code, kept apart from the plain bench build) let callgrind_annotate show
# where the instructions go: set KEEP=dir to keep the callgrind.out files there.
bin=$(cargo bench --bench engine --no-run --message-format=json \
    --config 'profile.bench.package.jackal.debug="line-tables-only"' 2>/dev/null |
    grep '"kind":\["bench"\]' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "callgrind.sh: the bench binary was not built" >&2; exit 1; }
if [ -n "${KEEP:-}" ]; then
    out=$KEEP
    mkdir -p "$out"
else
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
[ $# -gt 0 ] || set -- full flagged classic
for run in "$@"; do
    summary=$(ENGINE_COUNT="$run" valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect='*played_batch*' --callgrind-out-file="$out/$run" "$bin" 2>/dev/null)
    games=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) games, \([0-9]*\) plies/\1/p')
    plies=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) games, \([0-9]*\) plies/\2/p')
    total=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$out/$run")
    [ -n "$total" ] && [ -n "$games" ] || { echo "callgrind.sh: no count for $run" >&2; exit 1; }
    echo "$run: $((total / games)) instructions/game, $((total / plies)) instructions/ply ($games games, $plies plies)"
done
