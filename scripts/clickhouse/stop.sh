#!/usr/bin/env bash
# Stops the cluster started by start.sh DIR (its two server processes).
# Data and logs stay in DIR; remove it yourself when done.
set -euo pipefail
dir=${1:-${TMPDIR:-/tmp}/cardreg-clickhouse}
for s in 1 2; do
  pid="$dir/shard$s/pid"
  if [ -f "$pid" ]; then
    p=$(cat "$pid")
    kill "$p" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$p" 2>/dev/null || true
    rm -f "$pid"
  fi
done
