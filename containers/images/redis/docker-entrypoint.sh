#!/bin/sh
# As the official redis image does: redis-server and redis-sentinel drop to the user `redis` (owning
# /data first, as a fresh volume may be root's), and protected mode is off (the official image builds
# Redis with it off; Debian's binary has it on, which refuses every client from another container).
# Any other command runs as given.
set -e
case "$1" in
  redis-server|redis-sentinel)
    case " $* " in *" --protected-mode "*) ;; *) set -- "$@" --protected-mode no ;; esac
    if [ "$(id -u)" = 0 ]; then
      find . \! -user redis -exec chown redis '{}' +
      exec setpriv --reuid=redis --regid=redis --init-groups "$@"
    fi
    ;;
esac
exec "$@"
