#!/usr/bin/env bash
# Installs the real editors the editor tests drive: Debian's chromium, neovim, Emacs with eglot and
# ripgrep, and code-server (VS Code in the browser) into a cache folder outside the project's node_modules.
# Does nothing for what is already there, so CI can call it on every run. Parallel runs (CI jobs on one
# runner) share the cache: they take turns on a lock, and code-server is installed into a temporary
# folder that is renamed into place, so no run ever sees, or deletes, another's half-done install.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3 # the newest that runs on Node 20; never a range (see docs of the editor tests)
RIPGREP_CACHE_NAME=vscode-ripgrep-cache-1.15.11
RIPGREP_TARBALL=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz
EDITORS_DIR="${KUBE_RESILIENCE_EDITORS:-${XDG_CACHE_HOME:-$HOME/.cache}/kube-resilience-editors}"
CODE_SERVER_DIR="$EDITORS_DIR/code-server-$CODE_SERVER_VERSION"
DEBIAN_PACKAGES=(chromium neovim emacs-nox elpa-eglot ripgrep build-essential python3 pkg-config libkrb5-dev)

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

missing_debian_packages() {
  local package
  for package in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || echo "$package"
  done
}

install_debian_packages() {
  local missing
  missing=$(missing_debian_packages)
  [ -z "$missing" ] && return 0
  echo "install-editors: apt-get install $(echo $missing)"
  as_root apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

node_headers_dir() {
  # node-gyp must build against the headers of the Node that runs code-server, never download them.
  local prefix
  prefix=$(dirname "$(dirname "$(command -v node)")")
  for candidate in "$prefix" /usr /usr/local; do
    if [ -f "$candidate/include/node/node.h" ]; then echo "$candidate"; return; fi
  done
}

# @vscode/ripgrep's postinstall downloads rg from GitHub; hand it Debian's rg from its own cache instead.
seed_ripgrep_cache() {
  local tmp="$1" staging
  mkdir -p "$tmp/$RIPGREP_CACHE_NAME"
  [ -f "$tmp/$RIPGREP_CACHE_NAME/$RIPGREP_TARBALL" ] && return 0
  staging=$(mktemp -d)
  cp "$(command -v rg)" "$staging/rg"
  tar -czf "$tmp/$RIPGREP_CACHE_NAME/$RIPGREP_TARBALL" -C "$staging" rg
  rm -rf "$staging"
}

install_code_server() {
  if [ -x "$CODE_SERVER_DIR/node_modules/.bin/code-server" ] && [ -f "$CODE_SERVER_DIR/.installed" ]; then return 0; fi
  echo "install-editors: code-server $CODE_SERVER_VERSION into $CODE_SERVER_DIR"
  local staging
  staging=$(mktemp -d "$EDITORS_DIR/.code-server-$CODE_SERVER_VERSION.XXXXXX")
  mkdir -p "$staging/tmp"
  cat >"$staging/package.json" <<JSON
{
  "name": "kube-resilience-editors",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  seed_ripgrep_cache "$staging/tmp"
  local nodedir
  nodedir=$(node_headers_dir)
  (
    cd "$staging"
    export TMPDIR="$staging/tmp" npm_config_unsafe_perm=true npm_config_yes=true
    [ -n "$nodedir" ] && export npm_config_nodedir="$nodedir"
    npm install --no-audit --no-fund --save-exact --loglevel=error >install.log 2>&1 || {
      tail -40 install.log >&2
      rm -rf "$staging"
      exit 1
    }
  )
  "$staging/node_modules/.bin/code-server" --version >/dev/null
  touch "$staging/.installed"
  rm -rf "$staging/tmp"
  # A broken earlier install (no .installed) is set aside, then the new one takes its name at once.
  if [ -e "$CODE_SERVER_DIR" ]; then mv "$CODE_SERVER_DIR" "$staging.old" && rm -rf "$staging.old"; fi
  mv "$staging" "$CODE_SERVER_DIR"
}

started=$(date +%s)
mkdir -p "$EDITORS_DIR"
exec 9>"$EDITORS_DIR/.lock"
if ! flock -n 9; then
  echo "install-editors: another install is running; waiting for it"
  flock 9
fi
install_debian_packages
install_code_server
echo "install-editors: ready in $(($(date +%s) - started)) s (code-server: $CODE_SERVER_DIR/node_modules/.bin/code-server)"
