# Builds target/hmp-agent.jar for scripts/agent, saying what the build is doing as it goes: the first build
# downloads Maven's plugins and the libraries (minutes on a fresh machine), so a silent wait would look like a hang.
# The whole Maven output is kept in a file and shown only when the build fails.
#
#   source scripts/lib/build.bash; build_jar ROOT    # exit status: Maven's

# Reads Maven's output on stdin; prints one line on stderr each time the build moves to another step, and the
# number of files downloaded when it is done downloading.
build_progress() {
  awk '
    function say(text) { printf "scripts/agent: %s\n", text > "/dev/stderr"; fflush("/dev/stderr") }
    function leave_downloads() {
      if (step == "download") say("downloaded " downloads " files")
    }
    /^Downloading from |^Downloaded from / {
      if (step != "download") { step = "download"; say("downloading what the build needs (the first build only; it takes a few minutes)...") }
      if ($0 ~ /^Downloaded from /) downloads++
      next
    }
    /^\[INFO\] --- .*:(compile|testCompile) / {
      if (step != "compile") { leave_downloads(); step = "compile"; say("compiling...") }
      next
    }
    /^\[INFO\] --- .*:(jar|shade) / {
      if (step != "package") { leave_downloads(); step = "package"; say("packaging the jar...") }
      next
    }
  '
}

build_jar() {
  local root=$1 log status
  log="$(mktemp)"
  local started=$SECONDS
  set +e
  (cd "$root" && mvn -B -Dstyle.color=never -DskipTests package) 2>&1 | tee "$log" | build_progress
  status=${PIPESTATUS[0]}
  set -e
  if (( status != 0 )); then
    cat "$log" >&2
    rm -f "$log"
    echo "scripts/agent: the build failed (output above)" >&2
    return "$status"
  fi
  rm -f "$log"
  echo "scripts/agent: built in $(( SECONDS - started )) s" >&2
}
