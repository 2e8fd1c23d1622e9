#!/usr/bin/env bash
# Builds and installs the pgvector extension into the installed PostgreSQL server, for the team
# store's memory tests (vectors in the `vector` type, cosine distance on the server). Debian 12 ships
# no pgvector binary package for its PostgreSQL 15, but Debian's archive serves the source: the
# upstream tarball is fetched from deb.debian.org, checked against the SHA-256 pinned here (from the
# Checksums-Sha256 of pgvector_0.8.0-1.dsc), built with PGXS against the matching server headers
# (postgresql-server-dev-<major>) and installed. Idempotent: nothing is done when the server's
# extension folder already holds vector.control.
set -euo pipefail

PGVECTOR_VERSION=0.8.0
PGVECTOR_SHA256=867a2c328d4928a5a9d6f052cd3bc78c7d60228a9b914ad32aa3db88e9de27b0
PGVECTOR_URL="http://deb.debian.org/debian/pool/main/p/pgvector/pgvector_${PGVECTOR_VERSION}.orig.tar.gz"

# The newest installed server (Debian keeps each major in /usr/lib/postgresql/<major>); its own
# pg_config, since /usr/bin/pg_config may be libpq-dev's and name no server folders.
MAJOR=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
if [ -z "$MAJOR" ] || [ ! -x "/usr/lib/postgresql/$MAJOR/bin/pg_ctl" ]; then
  echo "install-pgvector: no PostgreSQL server installed (apt-get install postgresql first)" >&2
  exit 1
fi
PG_CONFIG="/usr/lib/postgresql/$MAJOR/bin/pg_config"
[ -x "$PG_CONFIG" ] || PG_CONFIG=pg_config

SHAREDIR=$("$PG_CONFIG" --sharedir)
if [ -f "$SHAREDIR/extension/vector.control" ]; then
  echo "== pgvector already installed for PostgreSQL $MAJOR ($SHAREDIR/extension/vector.control)"
  exit 0
fi

DEV_PACKAGE="postgresql-server-dev-$MAJOR"
if ! dpkg -s "$DEV_PACKAGE" build-essential curl ca-certificates >/dev/null 2>&1; then
  echo "== apt: $DEV_PACKAGE"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "$DEV_PACKAGE" build-essential curl ca-certificates >/dev/null
fi
# The server-dev package brings the server's own pg_config (with --pkglibdir and the PGXS makefile).
PG_CONFIG="/usr/lib/postgresql/$MAJOR/bin/pg_config"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "== pgvector $PGVECTOR_VERSION from $PGVECTOR_URL"
curl -fsSL --retry 3 -o "$WORK/pgvector.tar.gz" "$PGVECTOR_URL"
echo "$PGVECTOR_SHA256  $WORK/pgvector.tar.gz" | sha256sum -c --quiet - || {
  echo "install-pgvector: the downloaded tarball's SHA-256 is not the pinned one; nothing was built" >&2
  exit 1
}
tar -xzf "$WORK/pgvector.tar.gz" -C "$WORK"
SRC=$(find "$WORK" -mindepth 1 -maxdepth 1 -type d | head -1)
# OPTFLAGS="": the default -march=native would make a build that only runs on this machine's CPU.
make -C "$SRC" -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
make -C "$SRC" -s install PG_CONFIG="$PG_CONFIG" >/dev/null
test -f "$SHAREDIR/extension/vector.control"
echo "== pgvector $PGVECTOR_VERSION installed for PostgreSQL $MAJOR"
