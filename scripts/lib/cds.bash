# Class-data sharing for scripts/agent: an archive of the classes a start loads (AppCDS), made once per jar and JDK.
# Sourced by scripts/agent (and by the tests); it defines functions and CDS_RUNTIME_FLAGS, and runs nothing.
#
# The archive holds the classes of a start, parsed, verified and laid out for the JVM to map instead of reading them
# from the jar: about 3,800 classes, JDK ones included. It is a static archive (-Xshare:dump from a class list), not a
# dynamic one (-XX:ArchiveClassesAtExit): on JDK 17 a dynamic archive cannot hold classes older than Java 6, and the
# ~170 picocli classes of every start are Java 5 class files.
#
# It is made on first use, in the background and at the lowest CPU priority, from a training run of the jar on a
# throwaway file (piped input, no ./agent.toml or user config, the LLM at a closed local port, so no LLM call and no
# network): never from the person's own run, which starts at once without it and prints nothing more. The making
# waits until that run is quiet (at its prompt, or ended): run alongside its start it made the start 50 % slower on
# two cores, nice 19 or not. Starts that come meanwhile start without it; a lock keeps concurrent first starts from
# making it twice.
#
# It lives next to the jar: target/hmp-agent-<key>.jsa, <key> a checksum of the jar's path, size and modification
# time and of the java binary's (symlinks followed), so a rebuilt jar or another JDK gets a new archive; the old
# ones are removed when it is published (by an atomic rename, so a start never maps a half-written file).
# A JVM that cannot use an archive (another JDK, a damaged file) starts without it and says nothing:
# -Xshare:auto, and -Xlog:cds*=off for the warnings newer JDKs print.

# The JVM flags that use an archive, given with -XX:SharedArchiveFile: when the JVM cannot use it, it starts without.
CDS_RUNTIME_FLAGS=(-Xshare:auto '-Xlog:cds*=off')

# Sets CDS_ARCHIVE to the archive for jar $1 (an absolute path) run by java $2 (the file may not exist yet); returns
# 1, setting nothing, when the key cannot be computed (no GNU stat, e.g. on macOS: the agent starts without one).
cds_archive_for() {
  local jar="$1" java="$2" facts key
  facts="$(stat -L -c '%n %s %Y' -- "$jar" "$java" 2>/dev/null)" || return 1
  key="$(cksum <<<"$facts")"
  CDS_ARCHIVE="${jar%/*}/hmp-agent-${key%% *}.jsa"
}

# Starts making the archive $3 for jar $1 and java $2 in the background, detached from the terminal (its own
# session), at nice 19, silent, once process $4 (the agent being started) is quiet; $5... are the JVM flags the agent
# runs with (the archive is made with the same). Returns at once. Needs setsid, flock and timeout (util-linux,
# coreutils); without them it does nothing.
cds_build_in_background() {
  command -v setsid >/dev/null && command -v flock >/dev/null && command -v timeout >/dev/null || return 0
  setsid -f nice -n 19 bash -c 'source "$1" && shift && cds_build "$@"' cds-build "${BASH_SOURCE[0]}" "$@" \
      </dev/null >/dev/null 2>&1 || true
}

# Makes the archive $3 for jar $1 and java $2 once process $4 is quiet (0: at once), with the JVM flags $5..., unless
# another process is making one in the same directory or it exists. Blocks: the wait, a training run, then the dump
# (a few seconds of CPU).
cds_build() {
  local jar="$1" java="$2" archive="$3" agent="$4"
  shift 4
  local dir; dir="$(dirname -- "$archive")"
  exec {lock}>>"$dir/hmp-agent-cds.lock" || return 0
  flock -n "$lock" || return 0          # another start is making it: that one publishes it
  cds_wait_until_quiet "$agent"
  [[ -f $archive ]] && return 0         # made meanwhile
  CDS_WORK="$(mktemp -d "$dir/.hmp-agent-cds.XXXXXX")" || return 0
  trap 'rm -rf -- "$CDS_WORK"' EXIT     # a global: the trap runs after this function has returned
  local work="$CDS_WORK"
  mkdir "$work/config"
  printf '[cycle]\nautonomous = false\n' >"$work/agent.toml"   # so the start path reads a TOML file, as most do
  # a clean environment: no config from AGENT_*, OPENAI_* or OLLAMA_HOST; the user's cache (sqlite's library) kept
  (cd "$work" && env -i PATH="$PATH" HOME="${HOME:-/}" ${XDG_CACHE_HOME:+XDG_CACHE_HOME="$XDG_CACHE_HOME"} \
      XDG_CONFIG_HOME="$work/config" LANG="${LANG:-C.UTF-8}" \
      timeout 120 "$java" "$@" -Xshare:off -XX:DumpLoadedClassList="$work/classes.txt" -jar "$jar" \
      --db "$work/training.db" --base-url http://127.0.0.1:9/v1 </dev/null >/dev/null 2>&1) || true
  [[ -s $work/classes.txt ]] || return 0
  timeout 300 "$java" "$@" -Xshare:dump -XX:SharedClassListFile="$work/classes.txt" \
      -XX:SharedArchiveFile="$work/archive.jsa" -cp "$jar" >/dev/null 2>&1 || return 0
  [[ -s $work/archive.jsa ]] || return 0
  mv -f "$work/archive.jsa" "$archive" || return 0
  local old
  for old in "$dir"/hmp-agent-*.jsa; do
    [[ $old == "$archive" ]] || rm -f -- "$old"   # another jar's or JDK's; a JVM that mapped it keeps its pages
  done
}

# Returns once process $1 has ended or used at most 20 ms of CPU in 200 ms (a JVM at its prompt, or waiting on an
# LLM, uses 5 or less), after 30 s at most. Reads /proc; where there is none, returns at once.
cds_wait_until_quiet() {
  local pid="$1" before="" now stat i hz
  local -a fields
  hz="$(getconf CLK_TCK 2>/dev/null)" || return 0
  for ((i = 0; i < 150; i++)); do
    { read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 0   # a builtin: no process every 200 ms
    fields=(${stat##*) })                    # the fields after "(comm) ": [11] and [12] are utime and stime
    now=$(( fields[11] + fields[12] ))
    [[ -n $before ]] && (( (now - before) * 1000 / hz <= 20 )) && return 0
    before=$now
    sleep 0.2
  done
}
