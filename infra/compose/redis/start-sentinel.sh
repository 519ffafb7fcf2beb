#!/bin/sh
# One sentinel for infra/compose/redis-sentinel.yml. Its configuration is written on its first start
# only: a sentinel rewrites that file as it learns (the current primary after a failover, the replicas,
# the other sentinels, the epoch), and a restart must resume from it rather than from the first primary.
# Environment: MASTER_HOST, MASTER_PORT (6379), SENTINEL_MASTER (mymaster, the services'
# REDIS_SENTINEL_MASTER), SENTINEL_PORT (26379), QUORUM (2), DOWN_AFTER_MS (5000), SENTINEL_CONF.
set -eu
conf=${SENTINEL_CONF:-/data/sentinel.conf}
master=${SENTINEL_MASTER:-mymaster}
if [ ! -s "$conf" ]; then
  cat > "$conf" <<CONF
port ${SENTINEL_PORT:-26379}
# On the Compose network only (no port published): the services and the other sentinels reach it.
protected-mode no
# The primary is named by its service name, which resolves to whatever address the container has.
sentinel resolve-hostnames yes
sentinel monitor $master ${MASTER_HOST:?set MASTER_HOST} ${MASTER_PORT:-6379} ${QUORUM:-2}
sentinel down-after-milliseconds $master ${DOWN_AFTER_MS:-5000}
sentinel failover-timeout $master 60000
CONF
fi
exec redis-server "$conf" --sentinel
