#!/bin/sh
# Checks that the copies this repository vendors are still exact copies of the shared originals
# beside the project (../shared): the rules contract and Discord's OpenAPI description. Run it by
# hand where ../shared exists; the test suite reads only the vendored copies, so a clone of this
# repository alone builds and passes its tests.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared"
if [ ! -d "$shared" ]; then
    echo "no $shared beside the project: nothing to compare with" >&2
    exit 2
fi
status=0
check() {
    if ! cmp -s "$shared/$1" "$root/$2"; then
        echo "$2 differs from ../shared/$1: copy the shared file over it" >&2
        status=1
    fi
}
check RULES.md docs/RULES.md
for name in openapi.json LICENSE README.md; do
    check "discord-api-spec/$name" "crates/fake-discord/discord-api-spec/$name"
done
[ "$status" -eq 0 ] && echo "the vendored copies match ../shared"
exit "$status"
