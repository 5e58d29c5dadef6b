#!/usr/bin/env bash
# One offline `cline` turn (Cline CLI, the @cline/sdk one): a scripted OpenAI-compatible chat-completions API on
# 127.0.0.1 (provider openai-compatible) makes the model ask for the tool calls in FAKE_CALLS (or one shell command,
# FAKE_CMD); Cline runs the repository's .clinerules/hooks/<Event> files and the tools, and every request it sends is
# logged. Cline starts a hub daemon (`cline --cline-hub-daemon`) that outlives the turn and runs the next turns' tools
# and hooks: this script gives it a free port (CLINE_HUB_PORT) instead of the fixed 25463 and stops it at the end.
# usage: run-cline.sh <repo> [extra cline args]
#   env: CLINE_BIN (default: installed on first use into $CLINE_OFFLINE_DIR), CLINE_RUN_HOME (the HOME it runs with;
#        default a fresh one), FAKE_CALLS / FAKE_CMD, PROMPT (default "do the task"), MCP=1 to give Cline the fake MCP
#        server (tools fake__write_note), JSON_OUT=0 for the plain output instead of --json, KEEP_HUB=1 to leave the hub running (its port is printed), HUB_PORT=<port> to use
#        that port (and a hub already there)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$1" && pwd); shift
dir=${CLINE_OFFLINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cline-offline}
source "$here/../harness.sh"
if [[ -z ${CLINE_BIN:-} ]]; then
  CLINE_BIN=$dir/node_modules/cline/bin/cline
  install_once "$CLINE_BIN" "$dir" "cline@${CLINE_VERSION:-3.0.65}"
fi
JSON_OUT=${JSON_OUT-1}; [[ $JSON_OUT == 0 ]] && JSON_OUT=
work=$(mktemp -d)
home=${CLINE_RUN_HOME:-$work/home}
start_fake
settings=$home/.cline/data/settings
hub_port=${HUB_PORT:-$(node "$here/../free-port.mjs")}
run_env=(HOME="$home" CLINE_HUB_PORT="$hub_port" NO_COLOR=1)
# the provider, as a user sets one up (it writes $settings/providers.json)
env "${run_env[@]}" timeout 60 "$CLINE_BIN" auth -p openai-compatible -k sk-fake -m fake-model -b "http://127.0.0.1:$port/v1" >"$work/auth.out" 2>&1
if [[ ${MCP:-0} == 1 ]]; then
  printf '{"mcpServers":{"fake":{"command":"node","args":["%s"],"env":{"FAKE_MCP_LOG":"%s"}}}}\n' "$here/../fake-mcp.mjs" "$work/mcp.jsonl" >"$settings/cline_mcp_settings.json"
fi
# the hub's pid, from its discovery file; `cline hub stop` asks it to go, and the pid is killed if it did not
stop_hub() {
  local pid
  pid=$(node -e 'try{console.log(require(process.argv[1]).pid)}catch{}' "$home/.cline/data/locks/hub/production.json")
  env "${run_env[@]}" timeout 20 "$CLINE_BIN" hub stop >/dev/null 2>&1 || true
  [[ -n $pid ]] && grep -q -- --cline-hub-daemon "/proc/$pid/cmdline" 2>/dev/null && kill "$pid" 2>/dev/null || true
}
[[ ${KEEP_HUB:-0} == 1 ]] || cleanup="stop_hub; $cleanup"
set +e
(cd "$repo" && env "${run_env[@]}" timeout "${CLINE_TIMEOUT:-120}" "$CLINE_BIN" ${JSON_OUT:+--json} "$@" "${PROMPT:-do the task}" >"$work/cline.out" 2>"$work/cline.err" </dev/null)
rc=$?
set -e
echo "cline exit $rc"
echo "requests (what the model was sent, one JSON a line): $log"
echo "output: $work/cline.out   stderr: $work/cline.err   state: $home/.cline/data (hub log: logs/hub-daemon.log)"
[[ ${KEEP_HUB:-0} == 1 ]] && echo "hub port: $hub_port"
exit 0
