#!/usr/bin/env bash
# Runs the server tests against a real PostgreSQL (Debian's `postgresql` package): a throw-away cluster on
# 127.0.0.1:${PG_TEST_PORT:-55432}, removed on exit. Each test file creates and drops its own database.
#   usage: scripts/pg-test.sh [extra vitest args]
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${PG_TEST_PORT:-55432}"

find_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
BINDIR="$(find_bindir || true)"
if [ -z "$BINDIR" ] || [ ! -x "$BINDIR/initdb" ]; then
  echo "pg-test: PostgreSQL not found; installing Debian's postgresql package" >&2
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
  BINDIR="$(find_bindir)"
fi
echo "pg-test: using $BINDIR" >&2

# PostgreSQL refuses to run as root: run the cluster as the `postgres` user when we are root.
RUN=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
  RUN=(runuser -u postgres --)
fi

WORK="$(mktemp -d /tmp/esign-pg-test.XXXXXX)"
chmod 755 "$WORK"
[ "${#RUN[@]}" -gt 0 ] && chown postgres "$WORK"
PGDATA="$WORK/data"

cleanup() {
  "${RUN[@]}" "$BINDIR/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

"${RUN[@]}" "$BINDIR/initdb" -D "$PGDATA" -U postgres --auth=trust --encoding=UTF8 --no-locale >/dev/null
"${RUN[@]}" "$BINDIR/pg_ctl" -D "$PGDATA" -l "$WORK/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$WORK -c fsync=off -c full_page_writes=off -c synchronous_commit=off" \
  start >/dev/null

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "pg-test: PostgreSQL $("$BINDIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2
if [ "$#" -eq 0 ]; then
  # Only the files that open a database (scripts/pg-test-files.ts): pure units, the PDF engine, the
  # verifier corpus/fuzz and the seal renderer answer the same on either engine; the PGlite pass covers them.
  mapfile -t FILES < <(node_modules/.bin/node scripts/pg-test-files.ts)
  set -- "${FILES[@]}"
fi
npx vitest run --project server "$@"
