#!/bin/bash
# A streaming replica (hot standby) of the primary for infra/compose/read-replica.yml. Its first start
# copies the primary with pg_basebackup -R (standby.signal and primary_conninfo); every start then runs
# PostgreSQL on that copy, following the primary's WAL. Arguments are passed on to postgres.
# Environment: PGDATA, PRIMARY_HOST, PRIMARY_PORT (5432), PGUSER (postgres), PGPASSWORD.
set -euo pipefail
: "${PGDATA:?set PGDATA}" "${PRIMARY_HOST:?set PRIMARY_HOST}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  # The primary may still be starting: try again until it answers (pg_basebackup removes what it wrote).
  until pg_basebackup --host="$PRIMARY_HOST" --port="${PRIMARY_PORT:-5432}" --username="${PGUSER:-postgres}" \
      --pgdata="$PGDATA" --wal-method=stream --write-recovery-conf --checkpoint=fast; do
    echo "start-replica: pg_basebackup from $PRIMARY_HOST failed, trying again in 2 s" >&2
    sleep 2
  done
fi
chmod 700 "$PGDATA"
exec postgres -D "$PGDATA" "$@"
