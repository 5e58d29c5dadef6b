# Sourced by the run scripts (cline/, kilo/, droid/). `install_once <binary> <cache dir> <npm spec>` installs the
# client with npm into its cache folder unless the binary is there. `start_fake` starts fake-chat.mjs on a free port
# with its request log in $work, sets $port, $api and $log, and stops it on exit (with whatever else $cleanup holds).
install_once() {
  [[ -x $1 ]] && return
  mkdir -p "$2" && (cd "$2" && { [[ -f package.json ]] || npm init -y >/dev/null; } && npm install --no-audit --no-fund --no-save "$3" >/dev/null)
}
start_fake() {
  : "${work:?}" "${here:?}"
  log=$work/requests.jsonl; : >"$log"
  node "$here/../fake-chat.mjs" 0 "$log" "$work/fake.port" & api=$!
  cleanup="kill $api 2>/dev/null"
  trap 'eval "$cleanup"' EXIT
  for _ in $(seq 100); do [[ -s $work/fake.port ]] && break; sleep 0.05; done
  port=$(cat "$work/fake.port")
}
