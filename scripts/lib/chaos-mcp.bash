# scripts/chaos mcp [ROUNDS]: a misbehaving MCP stdio server under `agent run --hz 10` (issue 32).
#
# The server is src/test/resources/mcp/misbehaving-server.cjs (node), started by the agent as `[[mcp.servers]]` "bad"
# with timeout_s = 20 and sandbox = false (it runs unconfined: the server sandbox runs it as `nobody`, who would need
# the script and node made readable; what is tested here is the connection, not the sandbox). The scripted model
# (ChaosLlm) calls one tool a reply when the script asks it to, through $D/port.mcp, and the script waits for that
# call's process_log row to end before asking the next, so each round runs, one call at a time:
#   junk (two lines that are not JSON-RPC before the answer), big {mb: 20} (a 20 MB line), echo, count,
#   storm {n: 500} (500 notifications/tools/list_changed), count again 2.5 s later, die (the server exits mid-call),
#   then echo until one is answered (the server started again; 30 s at most). When the echo after big fails (an
#   unfixed build: the 20 MB line killed the server), echo until one is answered before the storm too.
# Each call's time is the script's, from asking the model to the row's end (a tick and the model's reply included).
# LOSS on a call that took timeout_s or more, junk not answered, the 20 MB result not refused with EFBIG, an echo
# after junk or big that failed, more than 10 tools/list for the storm, die not failed EOFFLINE within 5 s, or no
# echo answered within 30 s after it (no restart), a line on the terminal that is not the agent's own (a library's),
# or a restart said more often than the server died (one at the clean exit). CHAOS_MCP_JAR runs another build (the
# unfixed one: a "before"); CHAOS_MCP_JUNK=0 leaves junk out (an unfixed build loses the connection to it, and every
# later call only times out).
# Uses the helpers of scripts/chaos (scenario, agent_bg, q, final_checks, record, ...).

CHAOS_MCP_TIMEOUT=20

# Seconds (one decimal) from $1, an $EPOCHREALTIME reading, to now (chaos-clock.bash has the same, when it is there).
declare -F since >/dev/null || since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}'; }

# Asks the model to call $1 with arguments $2 (JSON) and waits (up to 60 s) for the call's row to end; sets
# STEP_STATUS, STEP_CODE, STEP_SECS (from the asking to the row's end) and STEP_RESULT (its first 100 characters);
# counts the call in CALLS, and in WAITED when it took timeout_s or more.
mcp_step() {
  local type="$1" args="$2" last row="" t0 status=""
  last=$(q "SELECT coalesce(max(id), 0) FROM process_log")
  echo "$type $args" >"$D/port.mcp"; CALLS=$((CALLS + 1))
  t0=$EPOCHREALTIME
  while ((${EPOCHREALTIME%.*} < ${t0%.*} + 60)); do
    [[ -z $row ]] && row=$(q "SELECT id FROM process_log WHERE name = '$type' AND id > $last ORDER BY id LIMIT 1")
    [[ -n $row ]] && status=$(q "SELECT status FROM process_log WHERE id = $row")
    [[ -n $status && $status != pending && $status != running ]] && break
    sleep 0.1
  done
  STEP_SECS=$(since "$t0")
  rm -f "$D/port.mcp"
  if [[ -z $row ]]; then STEP_STATUS="not issued"; STEP_CODE=""; STEP_RESULT=""
  elif [[ $status == pending || $status == running ]]; then STEP_STATUS="still $status"; STEP_CODE=""; STEP_RESULT=""
  else
    STEP_STATUS=$status; [[ $status == close ]] && STEP_STATUS=ok
    STEP_CODE=$(q "SELECT coalesce(error_code, '') FROM process_log WHERE id = $row")
    STEP_RESULT=$(q "SELECT substr(replace(result, char(10), ' '), 1, 100) FROM process_log WHERE id = $row")
  fi
  echo "$type $args: $STEP_STATUS ${STEP_CODE:--} in $STEP_SECS s: $STEP_RESULT" >>"$D/steps.txt"
  awk -v s="$STEP_SECS" -v t="$CHAOS_MCP_TIMEOUT" 'BEGIN {exit !(s >= t)}' && WAITED=$((WAITED + 1))
  return 0
}

# Calls echo (text $1.TRY) until one is answered, 30 s at most; UNTIL says "SECONDS s/TRIES"; false when none was.
echo_until_ok() {
  local t0=$EPOCHREALTIME tries=0
  while :; do
    tries=$((tries + 1))
    mcp_step mcp.bad.echo "{\"text\": \"$1.$tries\"}"
    step_ok && break
    ((${EPOCHREALTIME%.*} < ${t0%.*} + 30)) || break
    sleep 0.5
  done
  UNTIL="$(since "$t0")s/$tries"
  step_ok
}

# Whether the last step ended ok.
step_ok() { [[ $STEP_STATUS == ok ]]; }

chaos_mcp() {
  local rounds="${1:-3}"
  command -v node >/dev/null || { echo "scripts/chaos: mcp needs node (18+) for its misbehaving server" >&2; exit 2; }
  local jar="${CHAOS_MCP_JAR:-$jar}"
  scenario mcp "" 20
  cat >>"$D/agent.toml" <<EOF
[mcp]
allow = ["bad"]
[[mcp.servers]]
name = "bad"
command = "$(command -v node)"
args = ["$root/src/test/resources/mcp/misbehaving-server.cjs"]
timeout_s = $CHAOS_MCP_TIMEOUT
sandbox = false
EOF
  : >"$D/steps.txt"
  agent note "chaos-note-0" >>"$D/note.out" 2>&1 && echo "0 0" >>"$SENT"
  agent_bg "$D/run.out" run --hz 10
  local run=$BG
  wait_ticks 3 || loss "no tick before the first call" 1
  WAITED=0
  local r junk=0 big=0 after=0 c0 c1 lists="" storms=0 died=0 dies="" restarts="" norestart=0
  CALLS=0
  for ((r = 1; r <= rounds; r++)); do
    if [[ ${CHAOS_MCP_JUNK:-1} == 1 ]]; then
      mcp_step mcp.bad.junk "{\"text\": \"round $r\"}"
      step_ok && [[ $STEP_RESULT == "junk: round $r" ]] || junk=$((junk + 1))
    fi
    mcp_step mcp.bad.big '{"mb": 20}'
    [[ $STEP_CODE == EFBIG ]] || big=$((big + 1))
    mcp_step mcp.bad.echo "{\"text\": \"after big $r\"}"
    step_ok || { after=$((after + 1)); echo_until_ok "up again $r"; }   # the storm needs the server up
    mcp_step mcp.bad.count '{}'; c0=$STEP_RESULT
    mcp_step mcp.bad.storm '{"n": 500}'
    sleep 2.5   # a coalesced tools/list comes at most a second after the storm
    mcp_step mcp.bad.count '{}'; c1=$STEP_RESULT
    [[ $c0 =~ ^[0-9]+$ ]] || c0="?"
    [[ $c1 =~ ^[0-9]+$ ]] || c1="?"
    lists+="${lists:+ }$c0→$c1"
    [[ $c0 != "?" && $c1 != "?" ]] && ((c1 - c0 <= 10)) || storms=$((storms + 1))
    mcp_step mcp.bad.die "{\"round\": $r}"
    dies+="${dies:+ }${STEP_CODE:-$STEP_STATUS}/${STEP_SECS}s"
    [[ $STEP_CODE == EOFFLINE ]] && awk -v s="$STEP_SECS" 'BEGIN {exit !(s <= 5)}' || died=$((died + 1))
    if echo_until_ok "restarted $r"; then restarts+="${restarts:+ }$UNTIL"
    else restarts+="${restarts:+ }none"; norestart=$((norestart + 1)); fi
    echo "scripts/chaos: mcp: round $r/$rounds" >&2
  done
  local times; times=$(awk '{for (i = 1; i <= NF; i++) if ($i == "in") {v = $(i + 1); n++; s += v; if (v > m) m = v}} END {printf "mean %.1f s, longest %.1f s", s / n, m}' "$D/steps.txt")
  local dropped; dropped=$(grep -c 'not JSON-RPC' "$D/run.out")
  kill -TERM "$run"; wait "$run"; local rc=$?; forget_pid "$run"
  # after the exit: a line on the terminal that is not the agent's own (a library's), a restart said for no death
  local raw restarted
  raw=$(grep -v '^$' "$D/run.out" | grep -cv '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T')
  restarted=$(grep -c 'restarting it' "$D/run.out")
  [[ $rc == 0 || $rc == 143 ]] || LOSS+="${LOSS:+, }run exit $rc"
  final_checks
  FIG="$CALLS calls ($times; $WAITED took timeout_s = $CHAOS_MCP_TIMEOUT s or more); junk failed $junk, 20 MB not EFBIG $big, echo after big failed $after; tools/list the server had been sent before→after each 500-storm: $lists; die: $dies; first echo after die: $restarts (s/tries); 'not JSON-RPC' said $dropped×, 'restarting it' $restarted× for $rounds deaths, raw library lines $raw; $FIG"
  loss "calls that waited timeout_s" "$WAITED"; loss "junk calls not answered" "$junk"
  loss "20 MB results not refused (EFBIG)" "$big"; loss "echo after junk and big failed" "$after"
  loss "storms not coalesced (over 10 tools/list)" "$storms"; loss "die not EOFFLINE within 5 s" "$died"
  loss "no restart within 30 s" "$norestart"; loss "raw library lines on the terminal" "$raw"
  loss "restarts said beyond the deaths" "$((restarted > rounds ? restarted - rounds : 0))"
  stop_llm
  record "misbehaving MCP server (run --hz 10)" "$rounds"
}
