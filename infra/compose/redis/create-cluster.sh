#!/bin/sh
# Joins the cluster nodes of infra/compose/redis-cluster.yml into one cluster (the 16384 slots spread
# over them, no replicas), once: when the first node already reports cluster_state:ok it does nothing,
# so it runs again safely on every `up`. Environment: CLUSTER_NODES, the nodes as host:port separated
# by spaces (redis-cli --cluster create wants addresses, so each host is resolved first).
set -eu
: "${CLUSTER_NODES:?set CLUSTER_NODES}"
addresses=""
for node in $CLUSTER_NODES; do
  host=${node%:*}
  port=${node##*:}
  until redis-cli -h "$host" -p "$port" ping > /dev/null 2>&1; do
    echo "create-cluster: waiting for $node" >&2
    sleep 1
  done
  address=$(getent ahostsv4 "$host" | awk 'NR == 1 { print $1 }')
  addresses="$addresses $address:$port"
done
first=${CLUSTER_NODES%% *}
if redis-cli -h "${first%:*}" -p "${first##*:}" cluster info | grep -q '^cluster_state:ok'; then
  echo "create-cluster: the cluster is already formed"
  exit 0
fi
# shellcheck disable=SC2086
redis-cli --cluster create $addresses --cluster-replicas 0 --cluster-yes
