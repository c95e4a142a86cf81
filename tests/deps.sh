#!/bin/sh
# Install the Debian packages koma needs when they are missing (apt-get, as root),
# or name them and stop when we cannot install them ourselves.
#   tests/deps.sh PKG...               every package is needed: stop when one cannot be installed
#   tests/deps.sh --optional PKG...    (make bench) a package that cannot be installed is
#                                      skipped with a line saying so, and the rest installed;
#                                      the benches that need it say they are skipped
optional=0
if [ "${1:-}" = --optional ]; then optional=1; shift; fi
missing=""
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; make sure these (or their equivalents) are installed: $*" >&2
    exit 0
fi
for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO=sudo
    else
        echo "deps: missing Debian packages:$missing" >&2
        echo "deps: install them with: sudo apt-get install$missing" >&2
        [ $optional -eq 1 ] && { echo "deps: skipped:$missing (not root; the benches that need them are skipped)" >&2; exit 0; }
        exit 1
    fi
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! ${SUDO:-} apt-get update -qq >&2; then
    echo "deps: apt-get update failed" >&2
    [ $optional -eq 1 ] && { echo "deps: skipped:$missing (apt-get update failed)" >&2; exit 0; }
    exit 1
fi
# shellcheck disable=SC2086
${SUDO:-} apt-get install -y -qq --no-install-recommends $missing >&2 && exit 0
if [ $optional -eq 0 ]; then
    echo "deps: apt-get install$missing failed" >&2; exit 1
fi
# Optional packages: one at a time, so one that apt cannot install (npm beside a
# nodejs from another source: "held broken packages") does not stop the others.
echo "deps: apt-get install$missing failed; these are optional for make bench: trying one at a time" >&2
for p in $missing; do
    if ${SUDO:-} apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1; then
        echo "deps: installed $p" >&2
    elif command -v "$p" >/dev/null 2>&1; then
        echo "deps: skipped $p: apt-get cannot install it; using $(command -v "$p") from outside apt" >&2
    else
        echo "deps: skipped $p: apt-get cannot install it; the benches that need it say they are skipped" >&2
    fi
done
exit 0
