#!/usr/bin/env bash
# CI for the ClickHouse integration: installs Debian's clickhouse-server
# when missing, starts the two-shard cluster on loopback, runs the tests
# that need it, and stops the cluster whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clickhouse-server >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends clickhouse-server clickhouse-client
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/cardreg-clickhouse.XXXXXX")
trap 'scripts/clickhouse/stop.sh "$dir"; rm -rf "$dir"' EXIT
port=${CARDREG_CH_PORT:-18123}
url=$(CARDREG_CH_PORT=$port scripts/clickhouse/start.sh "$dir")
# TCP1: shard 1's native port (start.sh: HTTP + 1), for clickhouse-client in
# TestClickHouseReadmeRecipe, which runs README's recipe as written.
export CARDREG_CLICKHOUSE_URL=$url CARDREG_CLICKHOUSE_PORT1=$port CARDREG_CLICKHOUSE_PORT2=$((port + 10)) CARDREG_CLICKHOUSE_TCP1=$((port + 1))
go test -count=1 -run 'Integration|ClickHouse|EveryRoute' -v ./sqlstats/ ./cmd/cardreg/
