#!/usr/bin/env bash
# The client under test for `scripts/mcp-conformance client --command scripts/lib/conformance-client.sh`: the suite
# appends its test server's URL and names the scenario in MCP_CONFORMANCE_SCENARIO. Writes an agent.toml with one
# [[mcp.servers]] entry, `conf`, at that URL, and makes a real agent do what the scenario expects:
#   initialize (and any other)  `agent mcp list`: the handshake and tools/list
#   tools_call                  a headless run whose scripted model (scripted-model.mjs) calls mcp.conf.add_numbers
#   sse-retry                   the same, calling mcp.conf.test_reconnection
# Prints the agent's output (the run's lines show the call and its result); exits with the agent's code.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
url="${1:?the server URL, appended by the suite}"
scratch="$(mktemp -d)"
model_pid=""
trap '[[ -n $model_pid ]] && kill "$model_pid" 2>/dev/null; rm -rf "$scratch"' EXIT
db="$scratch/agent.db"
cat >"$scratch/agent.toml" <<TOML
[llm]
model = "scripted"
[mcp]
allow = ["conf"]
[[mcp.servers]]
name = "conf"
url = "$url"
timeout_s = 20
TOML
agent() { (cd "$scratch" && "$root/scripts/agent" "$@" --config "$scratch/agent.toml" --db "$db"); }

case "${MCP_CONFORMANCE_SCENARIO:-}" in
  tools_call) tool=add_numbers; args='{"a": 2, "b": 3}' ;;
  sse-retry) tool=test_reconnection; args='{}' ;;
  *) agent mcp list; exit ;;
esac
node "$root/scripts/lib/scripted-model.mjs" "mcp.conf.$tool" "$args" >"$scratch/port" &
model_pid=$!
for _ in $(seq 50); do [[ -s "$scratch/port" ]] && break; sleep 0.1; done
[[ -s "$scratch/port" ]] || { echo "conformance-client: the scripted model did not start" >&2; exit 1; }
base="http://127.0.0.1:$(cat "$scratch/port")/v1"
agent note "call the tool" --base-url "$base"
code=0
agent run --until-idle --max-ticks 200 --base-url "$base" || code=$?
exit "$code"
