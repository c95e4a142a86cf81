#!/bin/sh
# Install the Debian packages koma needs when they are missing (apt-get, as root),
# or name them and stop when we cannot install them ourselves.
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
        exit 1
    fi
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq >&2 || { echo "deps: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
${SUDO:-} apt-get install -y -qq --no-install-recommends $missing >&2 || {
    echo "deps: apt-get install$missing failed" >&2; exit 1; }
