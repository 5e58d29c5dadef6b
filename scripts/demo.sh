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
# Prints the exact command, quoted as a shell would need it, then runs it: what is shown is what runs.
show() {
  local line="git handoff"
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:@%+=-]+$ ]]; then line+=" $a"; else line+=" '${a//\'/\'\\\'\'}'"; fi
  done
  # bold on a terminal only: a pipe or a file gets plain text
  if [ -t 1 ]; then printf '\n\033[1m$ %s\033[0m\n' "$line"; else printf '\n$ %s\n' "$line"; fi
}
run() { show "$@"; gh "$@"; }

run write auth-refactor --session 5f0c6a52-alice -m "Goal: move login to the new token API" -m "Next action: port refresh() in src/auth.ts"

echo "# a second session, same topic:"
show write auth-refactor --session 9e1b7c33-bob -m "Goal: something else entirely"
if gh write auth-refactor --session 9e1b7c33-bob -m "Goal: something else entirely"; then
  echo "unexpected: session B overwrote 5f0c6a52 (alice)" >&2; exit 1
else
  echo "(exit $? — refused, 5f0c6a52 (alice)'s handoff is untouched)"
fi

run write auth-refactor --session 9e1b7c33-bob --take-over --reason "5f0c6a52 (alice) finished its turn" -m "Goal: move login to the new token API" -m "Done: refresh() ported" -m "Next action: delete the old client"

echo "# B owns it now:"
run write auth-refactor --session 9e1b7c33-bob -m "Goal: move login to the new token API" -m "Done: refresh() ported, old client deleted" -m "Next action: run the e2e suite"

run log auth-refactor

run list

echo "# what the next session reads first:"
run boot --session 3c4d5e6f-carol
