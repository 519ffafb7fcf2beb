#!/bin/sh
# The auth file from the environment (never baked into the image): PgBouncer checks the services'
# SCRAM logins against it and logs in to PostgreSQL with the same password. USERLIST must be the
# ini's auth_file.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
userlist=${USERLIST:-/run/pgbouncer/userlist.txt}
umask 077
printf '"postgres" "%s"\n' "$(printf '%s' "$POSTGRES_PASSWORD" | sed 's/"/""/g')" > "$userlist"
exec pgbouncer "${PGBOUNCER_INI:-/etc/pgbouncer/pgbouncer.ini}"
