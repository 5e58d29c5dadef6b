#!/usr/bin/env bash
# One offline `droid exec` turn (Factory droid): a scripted OpenAI-compatible chat-completions API on 127.0.0.1 (a
# BYOK custom model, provider generic-chat-completion-api, in ~/.factory/settings.json; no Factory login) makes the
# model ask for the tool calls in FAKE_CALLS (or one shell command, FAKE_CMD); droid runs the hooks of the repository's
# .factory/hooks.json (and the user's) and the tools, and every request it sends is logged.
# usage: run-droid.sh <repo> [extra droid exec args, e.g. --auto high]
#   env: DROID_BIN (default: installed on first use into $DROID_OFFLINE_DIR), DROID_RUN_HOME (the HOME it runs with;
#        default a fresh one), FAKE_CALLS / FAKE_CMD, PROMPT (default "do the task"), MCP=1 to give droid the fake MCP
#        server (in ~/.factory/mcp.json)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$1" && pwd); shift
dir=${DROID_OFFLINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/factory-offline}
source "$here/../harness.sh"
# @factory/cli is a launcher for the platform package; the registry here has the launcher at 0.225.1 and the
# linux-x64 binary at 0.225.2 only, so the binary's package is installed by itself
if [[ -z ${DROID_BIN:-} ]]; then
  DROID_BIN=$dir/node_modules/@factory/cli-linux-x64/bin/droid
  install_once "$DROID_BIN" "$dir" "@factory/cli-linux-x64@${DROID_VERSION:-0.225.2}"
fi
work=$(mktemp -d)
home=${DROID_RUN_HOME:-$work/home}
mkdir -p "$home/.factory"
start_fake
node -e '
const fs = require("fs"), f = process.argv[1];
let s = {}; try { s = JSON.parse(fs.readFileSync(f, "utf8")) } catch {}
s.customModels = [{ model: "fake-model", displayName: "Fake", baseUrl: process.argv[2], apiKey: "sk-fake", provider: "generic-chat-completion-api", maxOutputTokens: 4096 }];
fs.writeFileSync(f, JSON.stringify(s, null, 2) + "\n")' "$home/.factory/settings.json" "http://127.0.0.1:$port/v1"
if [[ ${MCP:-0} == 1 ]]; then
  printf '{"mcpServers":{"fake":{"type":"stdio","command":"node","args":["%s"],"env":{"FAKE_MCP_LOG":"%s"}}}}\n' "$here/../fake-mcp.mjs" "$work/mcp.jsonl" >"$home/.factory/mcp.json"
fi
set +e
(cd "$repo" && env HOME="$home" timeout "${DROID_TIMEOUT:-180}" "$DROID_BIN" exec -m "${DROID_MODEL:-custom:Fake-0}" -o json "$@" "${PROMPT:-do the task}" >"$work/droid.out" 2>"$work/droid.err" </dev/null)
rc=$?
set -e
echo "droid exit $rc"
echo "requests (what the model was sent, one JSON a line): $log"
echo "output: $work/droid.out   stderr: $work/droid.err   state: $home/.factory"
