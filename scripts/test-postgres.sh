#!/usr/bin/env bash
# Finds a PostgreSQL for the tests and writes its admin URL to .test-postgres-url:
# NOTULA_TEST_DATABASE_URL if set, else one on 127.0.0.1:5432, else a temporary
# cluster of Debian's postgresql package started here (installed when root). Each
# test file then creates and drops its own database on it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.test-postgres-url
try() { psql "$1" -Atqc 'select 1' >/dev/null 2>&1; }
# Test databases left by earlier runs (named notula_t_<pid>_...) are dropped first,
# but not those of a test process still running.
sweep() {
  psql "$1" -Atqc "select datname from pg_database where datname like 'notula\_t\_%'" 2>/dev/null |
    while read -r db; do
      pid=$(echo "$db" | cut -d_ -f3)
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then continue; fi
      psql "$1" -qc "drop database if exists \"$db\" with (force)" >/dev/null 2>&1 || true
    done
}

if [ -n "${NOTULA_TEST_DATABASE_URL:-}" ]; then
  try "$NOTULA_TEST_DATABASE_URL" || { echo "NOTULA_TEST_DATABASE_URL does not answer" >&2; exit 1; }
  sweep "$NOTULA_TEST_DATABASE_URL"; echo "$NOTULA_TEST_DATABASE_URL" > "$out"; exit 0
fi
if ! command -v psql >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing PostgreSQL for the tests" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
      || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; }
  else
    echo "The tests need PostgreSQL: install Debian's postgresql package, or set NOTULA_TEST_DATABASE_URL" >&2; exit 1
  fi
fi
for url in "postgres://postgres@127.0.0.1:5432/postgres" "postgres://$(id -un)@127.0.0.1:5432/postgres"; do
  if try "$url"; then sweep "$url"; echo "$url" > "$out"; exit 0; fi
done

# No server is reachable: a throwaway cluster on a free port, owned by an ordinary user.
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
dir=$(mktemp -d /tmp/notula-pg-XXXXXX)
port=55432
user=$(id -un)
run() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then user=postgres; chown postgres "$dir"; run() { runuser -u postgres -- "$@"; }; fi
run "$bin/initdb" -D "$dir/data" -U postgres -A trust >/dev/null
run "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres" > "$out"
echo "Started a temporary PostgreSQL on port $port ($dir)" >&2
