#!/usr/bin/env bash
# Installs what the in-host tests need, from the npm registry and Debian only (no other downloads):
#   - Debian's Chromium (the workbench UI runs in it, driven by playwright-core),
#   - Node 24 and code-server (VS Code 1.139 server + web workbench) into $VSCODE_HOST_DIR.
# Idempotent: a finished install is reused; a half-finished one is wiped first, because a dirty
# directory has been seen to break code-server's postinstall (argon2: "cross-env: Permission denied").
set -euo pipefail

HOST_DIR=${VSCODE_HOST_DIR:-$HOME/.cache/vscode-host}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}

# Chromium for the workbench UI (and the chat webview's unit tests); bubblewrap and socat (the relay to its
# network proxy) for exec's sandbox
# (its unit and host tests run it for real); Kerberos, xkbfile and libsecret headers for code-server's native
# modules (kerberos fails to build without gssapi/gssapi.h); a C/C++ toolchain for node-gyp; PostgreSQL
# for the shared team store's unit tests and bench (they start their own server in a temp folder).
APT_PACKAGES="chromium bubblewrap socat ripgrep libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev build-essential python3 pkg-config postgresql"
if ! dpkg -s $APT_PACKAGES >/dev/null 2>&1; then
  echo "== apt: $APT_PACKAGES"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $APT_PACKAGES >/dev/null
fi
# pgvector for the team store's memory on PostgreSQL: built from Debian's source (no bookworm package).
bash "$(dirname "$0")/../support/install-pgvector.sh"

if [ -x "$HOST_DIR/node_modules/.bin/code-server" ] && [ -x "$HOST_DIR/node_modules/.bin/node" ] \
   && [ -f "$HOST_DIR/.complete-$CODE_SERVER_VERSION" ]; then
  echo "== code-server $CODE_SERVER_VERSION already installed in $HOST_DIR"
  exit 0
fi

echo "== node@24 + code-server@$CODE_SERVER_VERSION into $HOST_DIR (about 3 minutes, 740 MB)"
rm -rf "$HOST_DIR"
mkdir -p "$HOST_DIR"
cd "$HOST_DIR"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error node@24
# code-server's postinstall must run under Node 24: put it first on PATH.
PATH="$HOST_DIR/node_modules/node/bin:$PATH" npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION"
"$HOST_DIR/node_modules/.bin/node" --version
touch "$HOST_DIR/.complete-$CODE_SERVER_VERSION"
