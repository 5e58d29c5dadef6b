#!/usr/bin/env bash
# What the git hooks add to `git commit`: N empty commits in a repository with no hooks, with empty
# stubs (`exit 0`), and with the git-handoff stubs, by a person and by an agent. Ratios against the
# empty stubs are measured in the same run (goal for a person: at most 1.5x).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$here/dist/cli.cjs" ] || (cd "$here" && npm run --silent build)
n=${1:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
mkdir -p "$HOME"
git config --global user.name Bench
git config --global user.email bench@example.com
unset GIT_HANDOFF_SESSION CLAUDE_CODE_SESSION_ID GEMINI_SESSION_ID CODEX_THREAD_ID GIT_HANDOFF_BYPASS

repo() { git init -q -b main "$work/$1" && git -C "$work/$1" commit -q --allow-empty -m init; }
now() { date +%s%N; }
# prints milliseconds per commit
run() {
  local dir=$work/$1 t0 t1
  shift
  t0=$(now)
  for _ in $(seq "$n"); do env "$@" git -C "$dir" commit -q --allow-empty -m bench; done
  t1=$(now)
  echo $(((t1 - t0) / n / 1000))
}

repo none
repo empty
for h in prepare-commit-msg commit-msg pre-commit pre-push reference-transaction; do
  printf '#!/bin/sh\nexit 0\n' >"$work/empty/.git/hooks/$h"
  chmod +x "$work/empty/.git/hooks/$h"
done
repo handoff
(cd "$work/handoff" && "$here/bin/git-handoff" install --hooks >/dev/null)

none=$(run none)
empty=$(run empty)
person=$(run handoff)
agent=$(run handoff GIT_HANDOFF_SESSION=bench-session-1)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "git commit, $n commits each, microseconds per commit"
printf '%-28s %8s %12s\n' setup 'us/commit' 'vs empty'
printf '%-28s %8s %12s\n' 'no hooks' "$none" "$(ratio "$none" "$empty")x"
printf '%-28s %8s %12s\n' 'empty stubs (exit 0)' "$empty" '1.00x'
printf '%-28s %8s %12s\n' 'git-handoff, person' "$person" "$(ratio "$person" "$empty")x"
printf '%-28s %8s %12s\n' 'git-handoff, agent session' "$agent" "$(ratio "$agent" "$empty")x"
