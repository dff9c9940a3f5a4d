# scripts/chaos clock [ROUNDS]: the agent's wall clock stepped back and forward under `agent run --hz 10` (issue 32).
#
# libfaketime (Debian: faketime) moves the wall clock of every agent process (Instant.now, through
# clock_gettime(CLOCK_REALTIME)) by the offset in a control file, read again at most once a second
# (FAKETIME_CACHE_DURATION=1: with FAKETIME_NO_CACHE=1 every read of the wall opens the file, and Instant.now falls
# from ~8 M to ~4 k calls a second here, which slows the agent itself); the monotonic clock (System.nanoTime,
# CLOCK_MONOTONIC) is left alone, as an NTP step, a VM restored from a snapshot or `date -s` leaves it. First an
# outage: the scripted model answers 503; right after the second 503 (its back-off is 2 s) the wall steps back 1 h, and
# the delay to the next request is measured; then the wall is set right and the model answers again. Then each round
# steps the wall back 1 h, forward 1 h, forward 1 h more and back 2 h, and 1.5 s after each step sends a note and
# measures how long it waits before the agent reads it (30 s at most).
# LOSS when a note waits longer than CHAOS_CLOCK_LIMIT s (5: 50 frames at 10 Hz; a machine at load 40 takes seconds a tick) or the
# retry comes later than that after its back-off. CHAOS_CLOCK_JAR runs another build (the unfixed one: a "before").
# Uses the helpers of scripts/chaos (scenario, agent, agent_bg, final_checks, record, ...).

CHAOS_FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1

# The agent with its wall clock offset by what $D/faketime says (seconds, "+0", "-3600"); its monotonic clock real.
faked() {
  LD_PRELOAD="$CHAOS_FAKETIME_LIB" FAKETIME_TIMESTAMP_FILE="$D/faketime" FAKETIME_CACHE_DURATION=1 \
      DONT_FAKE_MONOTONIC=1 FAKETIME_DONT_FAKE_MONOTONIC=1 "$@"
}

# Seconds (one decimal) from $1 to now, both $EPOCHREALTIME readings (the script's own clock is not faked).
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}'; }

# Sends note chaos-note-$1 from a faked `agent note`, then waits (up to 30 s) until the running agent has read it;
# prints the seconds from the note's acknowledgement to its reading, or ">30" (or "refused" when not acknowledged).
clock_note() {
  local k="$1" rc t0
  faked agent note "chaos-note-$k" >>"$D/note.out" 2>&1; rc=$?
  echo "$k $rc" >>"$SENT"
  [[ $rc == 0 ]] || { echo refused; return; }
  t0=$EPOCHREALTIME
  while ((${EPOCHREALTIME%.*} < ${t0%.*} + 30)); do
    [[ $(q "SELECT read FROM notes WHERE text = 'chaos-note-$k'") == 1 ]] && { since "$t0"; return; }
    sleep 0.1
  done
  echo ">30"
}

# Whether "$1" (seconds, or ">30", "refused") is over the limit.
too_slow() { [[ $1 == ">"* || $1 == refused ]] || awk -v s="$1" -v l="$CHAOS_CLOCK_LIMIT" 'BEGIN {exit !(s > l)}'; }

chaos_clock() {
  local rounds="${1:-3}"
  CHAOS_CLOCK_LIMIT="${CHAOS_CLOCK_LIMIT:-5}"
  [[ -r $CHAOS_FAKETIME_LIB ]] || { echo "scripts/chaos: clock needs libfaketime ($CHAOS_FAKETIME_LIB): apt-get install faketime" >&2; exit 2; }
  local jar="${CHAOS_CLOCK_JAR:-$jar}"
  scenario clock "" 20
  echo "+0" >"$D/faketime"
  faked agent note "chaos-note-0" >>"$D/note.out" 2>&1 && echo "0 0" >>"$SENT"
  faked agent_bg "$D/run.out" run --hz 10
  local run=$BG
  wait_ticks 3 || loss "no tick before the first step" 1
  # the outage: 503 until the file goes; the wall steps back 1 h just after the second 503 (back-off 2 s)
  local log="$D/port.requests" first="" t_step retry="" delay="-" i
  touch "$D/port.outage"
  local deadline=$((${EPOCHREALTIME%.*} + 30))
  while ((${EPOCHREALTIME%.*} < deadline)); do
    first=$(awk '$2 == 503 && ++n == 2 {print $1; exit}' "$log" 2>/dev/null); [[ -n $first ]] && break; sleep 0.05
  done
  echo "-3600" >"$D/faketime"; t_step=$EPOCHREALTIME
  deadline=$((${EPOCHREALTIME%.*} + 30))
  while ((${EPOCHREALTIME%.*} < deadline)); do
    retry=$(awk -v f="$first" '$1 > f {print $1; exit}' "$log" 2>/dev/null); [[ -n $retry ]] && break; sleep 0.1
  done
  [[ -n $first && -n $retry ]] && delay=$(awk -v a="$first" -v b="$retry" 'BEGIN {printf "%.2f", (b - a) / 1000}')
  [[ -z $first ]] && delay="no second 503 seen"
  [[ -n $first && -z $retry ]] && delay=">30"
  local said; said=$(grep -o 'retrying in [0-9.]* [a-z]*' "$D/run.out" | head -1)
  rm -f "$D/port.outage"
  echo "+0" >"$D/faketime"
  local after; after=$(clock_note 1)
  local k=2 r offset w waits="" slow=0 worst=0 base
  base=$(clock_note "$k"); k=$((k + 1))
  for ((r = 1; r <= rounds; r++)); do
    for offset in -3600 +0 +3600 -3600; do   # back 1 h, forward 1 h, forward 1 h, back 2 h
      echo "$offset" >"$D/faketime"
      sleep 1.5   # the agent sees the step within a second
      w=$(clock_note "$k"); k=$((k + 1))
      waits+="${waits:+ }$w"
      too_slow "$w" && slow=$((slow + 1))
      [[ $w == ">"* || $w == refused ]] && worst="$w" || worst=$(awk -v a="$worst" -v b="$w" 'BEGIN {print (a ~ />/ || a + 0 >= b + 0) ? a : b}')
    done
    echo "+0" >"$D/faketime"
  done
  echo "+0" >"$D/faketime"
  kill -TERM "$run"; wait "$run"; local rc=$?; forget_pid "$run"
  [[ $rc == 0 || $rc == 143 ]] || LOSS+="${LOSS:+, }run exit $rc"
  final_checks
  FIG="notes after each step (s): $waits (before any step: $base; worst $worst); outage: next request ${delay} s after the second 503 (${said:-no back-off line}; wall stepped back 1 h $(awk -v a="${first:-0}" -v b="$t_step" 'BEGIN {printf "%.2f", b - a / 1000}') s after it), note after the outage $after s; $FIG"
  loss "notes waiting over ${CHAOS_CLOCK_LIMIT} s after a step" "$slow"
  if [[ $delay == ">"* || $delay == no* ]] || awk -v d="$delay" -v l="$CHAOS_CLOCK_LIMIT" 'BEGIN {exit !(d > 2 + l)}'; then
    loss "retry late after the step" 1
  fi
  too_slow "$after" && loss "note after the outage late" 1
  stop_llm
  record "wall clock stepped ±1 h (run --hz 10)" "$rounds"
}
