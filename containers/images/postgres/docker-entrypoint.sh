#!/bin/bash
# The official postgres image's start, for Debian's PostgreSQL 15: `postgres ...` initialises an empty
# PGDATA (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB), then runs the server as `postgres`; any other
# command runs as given (as the container's user).
set -euo pipefail
if [ "${1:-}" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    install -d -m 700 -o postgres -g postgres "$PGDATA"
    chown -R postgres:postgres "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?the database is uninitialised and POSTGRES_PASSWORD is not set}"
    user=${POSTGRES_USER:-postgres}
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    printf '\nhost all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
    printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.auto.conf"
    db=${POSTGRES_DB:-$user}
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
      psql -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres -c "CREATE DATABASE \"$db\"" >/dev/null
      pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "docker-entrypoint: initialised $PGDATA (user $user, database $db)"
  fi
fi
exec "$@"
