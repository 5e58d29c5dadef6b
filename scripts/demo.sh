#!/usr/bin/env bash
# The main job in one run: two sessions share a branch; the second cannot clobber the first's handoff,
# takes it over on the record instead, and every version stays in the history.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$here/dist/cli.cjs" ] || (cd "$here" && npm run --silent build)
gh() { "$here/bin/git-handoff" "$@"; }
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
export HOME=$demo/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
unset GIT_HANDOFF_SESSION CLAUDE_CODE_SESSION_ID GEMINI_SESSION_ID CODEX_THREAD_ID
cd "$demo" && git init -q -b main repo && cd repo
git -c user.name=Demo -c user.email=demo@example.com commit -q --allow-empty -m "initial commit"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step "git handoff write auth-refactor --session 5f0c6a52-alice -m 'Goal: …' -m 'Next action: …'"
gh write auth-refactor --session 5f0c6a52-alice -m "Goal: move login to the new token API" -m "Next action: port refresh() in src/auth.ts"

step "git handoff write auth-refactor --session 9e1b7c33-bob -m 'my notes'   # a second session, same topic"
if gh write auth-refactor --session 9e1b7c33-bob -m "Goal: something else entirely"; then
  echo "unexpected: session B overwrote 5f0c6a52 (alice)" >&2; exit 1
else
  echo "(exit $? — refused, 5f0c6a52 (alice)'s handoff is untouched)"
fi

step "git handoff write auth-refactor --session 9e1b7c33-bob --take-over --reason 'A finished' -m …"
gh write auth-refactor --session 9e1b7c33-bob --take-over --reason "5f0c6a52 (alice) finished its turn" -m "Goal: move login to the new token API" -m "Done: refresh() ported" -m "Next action: delete the old client"

step "git handoff write auth-refactor --session 9e1b7c33-bob -m …   # B owns it now"
gh write auth-refactor --session 9e1b7c33-bob -m "Goal: move login to the new token API" -m "Done: refresh() ported, old client deleted" -m "Next action: run the e2e suite"

step "git handoff log auth-refactor"
gh log auth-refactor

step "git handoff list"
gh list
