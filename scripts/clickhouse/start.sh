#!/usr/bin/env bash
# Starts a two-shard ClickHouse cluster on loopback for cardreg's tests:
# two server processes with their own config, data and logs under DIR
# (default ${TMPDIR:-/tmp}/cardreg-clickhouse), a remote_servers entry
# "cardreg" naming both shards, and prints the HTTP URL of shard 1.
# Ports: CARDREG_CH_PORT (default 18123) and the next ones.
# Stop with scripts/clickhouse/stop.sh DIR.
set -euo pipefail
dir=${1:-${TMPDIR:-/tmp}/cardreg-clickhouse}
base=${CARDREG_CH_PORT:-18123}
server=$(command -v clickhouse-server || true)
if [ -z "$server" ]; then
  echo "start.sh: clickhouse-server is not installed (apt-get install clickhouse-server clickhouse-client)" >&2
  exit 1
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
http() { echo $((base + 10 * ($1 - 1))); }
tcp() { echo $((base + 10 * ($1 - 1) + 1)); }
inter() { echo $((base + 10 * ($1 - 1) + 2)); }

cat >"$dir/users.xml" <<XML
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>::1</ip><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML

for s in 1 2; do
  d="$dir/shard$s"
  mkdir -p "$d/data" "$d/tmp" "$d/user_files" "$d/log"
  cat >"$d/config.xml" <<XML
<yandex>
  <logger><level>warning</level><log>$d/log/server.log</log><errorlog>$d/log/error.log</errorlog><size>10M</size><count>2</count></logger>
  <http_port>$(http $s)</http_port>
  <tcp_port>$(tcp $s)</tcp_port>
  <interserver_http_port>$(inter $s)</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <listen_host>127.0.0.1</listen_host>
  <path>$d/data/</path>
  <tmp_path>$d/tmp/</tmp_path>
  <user_files_path>$d/user_files/</user_files_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>536870912</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <remote_servers>
    <cardreg>
      <shard><replica><host>127.0.0.1</host><port>$(tcp 1)</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$(tcp 2)</port></replica></shard>
    </cardreg>
  </remote_servers>
</yandex>
XML
  if [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null; then
    continue # already running
  fi
  # exec: the background job is the server itself, so $! is its pid; no
  # descriptor of this script's stdout stays open in it.
  (cd "$d" && exec "$server" --config-file="$d/config.xml") </dev/null >"$d/log/stdout.log" 2>&1 &
  echo $! >"$d/pid"
done

# Ready when the native port answers (clickhouse-client comes with the
# server's package; no curl needed), each try bounded: a server that accepts
# and never answers must not hang the script.
ready() { [ "$(timeout 10 clickhouse-client --host 127.0.0.1 --port "$(tcp "$1")" --query 'SELECT 1' 2>/dev/null)" = "1" ]; }
for s in 1 2; do
  for _ in $(seq 1 120); do
    ready "$s" && break
    sleep 0.5
  done
  if ! ready "$s" || ! kill -0 "$(cat "$dir/shard$s/pid")" 2>/dev/null; then
    echo "start.sh: shard $s is not running or not answering on 127.0.0.1:$(tcp $s) (a port in use? set CARDREG_CH_PORT); its log:" >&2
    tail -n 20 "$dir/shard$s/log/error.log" "$dir/shard$s/log/stdout.log" >&2 2>/dev/null || true
    exit 1
  fi
done
echo "http://127.0.0.1:$(http 1)/"
