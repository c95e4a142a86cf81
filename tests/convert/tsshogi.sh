# tests/convert/tsshogi.sh — sourced by the cross-tests against tsshogi (npm):
# tsshogi@$tsshogi_version lives in a cache outside the source tree
# ($KOMA_NPM_CACHE, default ~/.cache/koma/npm) and is installed when missing.
# `why=$(tsshogi_ready TMPDIR) || skip "$why"`, then NODE_PATH=$tsshogi_path.
tsshogi_version=2.2.0
tsshogi_cache=${KOMA_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/koma/npm}
tsshogi_path=$tsshogi_cache/node_modules

tsshogi_ready() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
        { echo "node and npm are not installed"; return 1; }
    grep -q "\"version\": \"$tsshogi_version\"" "$tsshogi_path/tsshogi/package.json" 2>/dev/null && return 0
    mkdir -p "$tsshogi_cache" || { echo "cannot create $tsshogi_cache"; return 1; }
    if ! npm install --prefix "$tsshogi_cache" --no-audit --no-fund --no-save --silent \
        "tsshogi@$tsshogi_version" >"$1/npm.log" 2>&1; then
        echo "npm install tsshogi@$tsshogi_version failed: $(tail -n 1 "$1/npm.log")"
        return 1
    fi
}
