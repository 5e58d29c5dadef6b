#!/usr/bin/env bash
# One offline `kilo run` turn (Kilo Code CLI, an OpenCode fork): a scripted OpenAI-compatible chat-completions API on
# 127.0.0.1 (a custom provider given in KILO_CONFIG_CONTENT) makes the model ask for the tool calls in FAKE_CALLS (or
# one shell command, FAKE_CMD); Kilo loads the plugins of the repository's .kilo/plugin(s)/ (and the user's), runs
# their hooks and the tools, and every request it sends is logged.
# usage: run-kilo.sh <repo> [extra kilo run args]
#   env: KILO_BIN (default: installed on first use into $KILO_OFFLINE_DIR), KILO_RUN_HOME (the HOME it runs with;
#        default a fresh one), FAKE_CALLS / FAKE_CMD, PROMPT (default "do the task"), MCP=1 to give Kilo the fake MCP
#        server (tools fake_write_note)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$1" && pwd); shift
dir=${KILO_OFFLINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kilo-offline}
source "$here/../harness.sh"
if [[ -z ${KILO_BIN:-} ]]; then
  KILO_BIN=$dir/node_modules/@kilocode/cli-linux-x64/bin/kilo
  install_once "$KILO_BIN" "$dir" "@kilocode/cli@${KILO_VERSION:-7.7.7}"
fi
work=$(mktemp -d)
home=${KILO_RUN_HOME:-$work/home}
mkdir -p "$home"
start_fake
mcp=
[[ ${MCP:-0} == 1 ]] && mcp=",\"mcp\":{\"fake\":{\"type\":\"local\",\"command\":[\"node\",\"$here/../fake-mcp.mjs\"],\"environment\":{\"FAKE_MCP_LOG\":\"$work/mcp.jsonl\"}}}"
config=$(cat <<JSON
{"\$schema":"https://app.kilo.ai/config.json","autoupdate":false,"share":"disabled",
 "model":"fake/fake-model","small_model":"fake/fake-model",
 "permission":{"bash":"allow","edit":"allow","webfetch":"deny","external_directory":"allow"},
 "provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"Fake","options":{"baseURL":"http://127.0.0.1:$port/v1","apiKey":"sk-fake"},
   "models":{"fake-model":{"name":"Fake Model","tool_call":true,"limit":{"context":128000,"output":4096}}}}}$mcp}
JSON
)
set +e
(cd "$repo" && env HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" \
  XDG_STATE_HOME="$home/.local/state" KILO_CONFIG_CONTENT="$config" KILO_DISABLE_MODELS_FETCH=1 KILO_DISABLE_AUTOUPDATE=1 \
  KILO_DISABLE_SHARE=1 KILO_TELEMETRY_LEVEL=off \
  timeout "${KILO_TIMEOUT:-180}" "$KILO_BIN" run --print-logs --log-level INFO --auto "$@" "${PROMPT:-do the task}" >"$work/kilo.out" 2>"$work/kilo.err" </dev/null)
rc=$?
set -e
echo "kilo exit $rc"
echo "requests (what the model was sent, one JSON a line): $log"
echo "output: $work/kilo.out   logs: $work/kilo.err   state: $home"
