#!/bin/sh
# git-handoff hook stub. `git handoff install --hooks` writes this file as each hook it handles and
# `git handoff uninstall` removes it. It decides in shell when an event cannot concern it, does nothing
# when git-handoff is gone, then runs the hook that was here before (<hook>.handoff-chained).
GIT_HANDOFF_BIN=''
# The session trailer's key as a case-insensitive pattern, written by install from src/handoff/document.ts.
SESSION_KEY='[Cc][Ll][Aa][Uu][Dd][Ee]-[Ss][Ee][Ss][Ss][Ii][Oo][Nn]-[Ii][Dd]'
# The trailer prepare-commit-msg adds, and what makes a session id invalid (src/handoff/state/session.ts), likewise.
TRAILER_KEY='Claude-Session-Id'
SESSION_BAD='[!A-Za-z0-9._:-]' SESSION_MAX=128
# The refs the reference-transaction handler checks and the state files pre-commit's handler reads, likewise
# (src/hooks/stub-lines.ts): the claims marker and the ledger in the common dir, a refused reset's note in the git dir.
HANDOFF_REFS='refs/handoffs/' ARCHIVE_REFS='refs/handoff-archive/' NOTES_REF='refs/notes/handoff-reads' REPLACE_REFS='refs/replace/' CLAIMS_FILE='handoff/claims.json' LEDGER_DIR='handoff/ledger' REFUSED_RESET='handoff-refused-reset.json'
# The hook's name is this file's name (lefthook keeps a foreign hook as <hook>.old, pre-commit as <hook>.legacy).
hook=${0##*/}
hook=${hook%.old}
hook=${hook%.legacy}
case $0 in */*) hookdir=${0%/*} ;; *) hookdir=. ;; esac
chained="$hookdir/$hook.handoff-chained"
# The session's id: the first of the variables node reads it from (src/hooks/stub-lines.ts writes this line).
session=${GIT_HANDOFF_SESSION:-${CLAUDE_CODE_SESSION_ID:-${GEMINI_SESSION_ID:-${CODEX_THREAD_ID:-${COPILOT_AGENT_SESSION_ID:-${QWEN_CODE_SESSION_ID:-${OPENCODE_SESSION_ID:-${KILO_SESSION_ID:-$CRUSH_SESSION_ID}}}}}}}}

# Only `prepared` is checked: the other states cost nothing unless a chained hook wants them (git
# ignores a hook that leaves its input unread).
if [ "$hook" = reference-transaction ] && [ "$1" != prepared ] && ! [ -x "$chained" ]; then exit 0; fi

# Hooks fed on stdin: read it once, replay it to the handler and to the chained hook.
piped=
case $hook in
reference-transaction | pre-push)
	piped=1
	input=$(cat; echo .)
	input=${input%.}
	;;
esac

is_zero() { case $1 in *[!0]*) return 1 ;; esac; }

# A branch update that is not a fast-forward (amend, rebase, reset) may drop another session's commits.
rewrites_branch() {
	while read -r old new ref; do
		case $ref in refs/heads/*) ;; *) continue ;; esac
		is_zero "$new" && continue
		if is_zero "$old"; then old=$(git rev-parse -q --verify "$ref") || continue; fi
		[ "$old" = "$new" ] && continue
		git merge-base --is-ancestor "$old" "$new" 2>/dev/null || return 0
	done <<EOF
$input
EOF
	return 1
}

# bin= the launcher the handler runs through: the one install recorded, else git-handoff on PATH; none: git-handoff is gone
find_bin() {
	bin=
	if [ -n "$GIT_HANDOFF_BIN" ] && [ -x "$GIT_HANDOFF_BIN" ]; then
		bin=$GIT_HANDOFF_BIN
	elif command -v git-handoff >/dev/null 2>&1; then
		bin=git-handoff
	fi
	[ -n "$bin" ]
}

# The handler's prepare-commit-msg (src/hooks/commit.ts) where its answer is certain without it, for a session whose
# git-handoff is there: a valid id; the message file in the git dir (its HEAD beside it); no rebase (nothing to add);
# git's default comment character; no scissors line and no session line anywhere (a trailer of one: the handler
# reads); a line with content (an ASCII character that is not a space, not after a #), else nothing (the editor
# will open, and commit-msg adds it). Then the trailer as the handler adds it. Else (1) the handler decides.
add_trailer() {
	case $session in '' | *$SESSION_BAD*) return 1 ;; esac
	[ "${#session}" -le "$SESSION_MAX" ] && [ -n "$TRAILER_KEY" ] || return 1
	find_bin || return 0
	case $1 in */*) dir=${1%/*} ;; *) return 1 ;; esac
	[ -f "$dir/HEAD" ] && [ -f "$1" ] || return 1
	if [ -e "$dir/rebase-merge" ] || [ -e "$dir/rebase-apply" ]; then return 0; fi
	[ -z "$(git config core.commentChar 2>/dev/null)" ] || return 1
	content= nonl= line=
	while { IFS= read -r line && nonl=; } || { [ -n "$line" ] && nonl=1; }; do
		case $line in
		$SESSION_KEY* | ?' '-*' >8 '-*) return 1 ;;
		'#'* | '') ;;
		*[[:graph:]]*) content=1 ;;
		*[![:space:]]*) return 1 ;;
		esac
	done <"$1"
	[ -n "$content" ] || return 0
	# git merge writes its message without a final newline: interpret-trailers would glue the trailer to it
	{ [ -z "$nonl" ] || printf '\n' >>"$1"; } && git interpret-trailers --in-place --no-divider --where end --if-exists doNothing --trailer "$TRAILER_KEY: $session" "$1"
}

need=
case $hook in
prepare-commit-msg) [ -n "$session" ] && { add_trailer "$1" || need=1; } ;;
commit-msg)
	# Decided here when the message carries no id (a person) or exactly the session's own id (an
	# agent, after prepare-commit-msg); anything else goes to the handler.
	ids=0 own=0
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		*'-- >8 --'*) break ;; # the diff of `commit -v` follows
		$SESSION_KEY:* | $SESSION_KEY[[:space:]]*:*)
			ids=$((ids + 1))
			value=${line#*:}
			value=${value#"${value%%[![:space:]]*}"}
			value=${value%"${value##*[![:space:]]}"}
			[ -n "$session" ] && [ "$value" = "$session" ] && own=1
			;;
		esac
	done <"$1"
	if [ "$ids" -gt 1 ]; then
		need=1
	elif [ -n "$session" ] && { [ "$ids" -eq 0 ] || [ "$own" -eq 0 ]; }; then
		need=1
	fi
	;;
pre-commit)
	# Only another session's ledger, or a refused reset that left the files reset, can concern this commit; or a live
	# claim. Both directories from one rev-parse (a newline in either: the handler reads them).
	nl='
'
	dirs=$(git rev-parse --git-dir --git-common-dir 2>/dev/null) && gitdir=${dirs%%"$nl"*} common=${dirs#*"$nl"}
	case $common in *"$nl"*) need=1 ;; esac
	[ -e "$common/$CLAIMS_FILE" ] && need=1
	if [ -n "$session" ]; then
		[ -e "$gitdir/$REFUSED_RESET" ] && need=1
		ledger="$common/$LEDGER_DIR"
		for f in "$ledger"/*.jsonl; do
			[ -e "$f" ] || continue
			[ "${f##*/}" = "$session.jsonl" ] && continue
			need=1
			break
		done
	fi
	;;
pre-push) need=1 ;;
reference-transaction)
	if [ "$1" = prepared ]; then
		case $input in *"$HANDOFF_REFS"* | *"$ARCHIVE_REFS"* | *" $NOTES_REF"* | *" $REPLACE_REFS"*) need=1 ;; esac
		[ -z "$need" ] && [ -n "$session" ] && rewrites_branch && need=1
	fi
	;;
esac

if [ -n "$need" ]; then
	if find_bin; then
		if [ -n "$piped" ]; then
			printf '%s' "$input" | "$bin" githook "$hook" "$@"
		else
			"$bin" githook "$hook" "$@"
		fi
		rc=$?
		# A refusal exits 3 or 6, an invalid session id 2. Anything else is git-handoff failing (1: an
		# internal error, 127: no node): like git-handoff being gone, that never blocks git.
		case $rc in
		0 | 127) ;;
		2 | 3 | 6) exit "$rc" ;;
		*) echo "git-handoff: the $hook check failed (exit $rc); allowed" >&2 ;;
		esac
	fi
fi

[ -f "$chained" ] && [ -x "$chained" ] || exit 0

# A shell script is sourced with $0 set to this hook's path, so hooks that find their files from $0
# (husky's .husky/_/h, pre-commit's --hook-dir) behave as if they were still installed here.
pick_shell() {
	[ "${1##*/}" = env ] && shift
	case ${1##*/} in sh | bash | dash | ksh | mksh | zsh | ash) shell=$* ;; esac
}
# Anything else (another interpreter, a binary, a script without #!) is executed as git would.
shell=
IFS= read -r first <"$chained" || :
case $first in
'#!'*)
	set -f
	# shellcheck disable=SC2086
	pick_shell ${first#??}
	set +f
	;;
esac

run_chained() {
	if [ -n "$shell" ]; then
		GIT_HANDOFF_CHAINED=$chained
		export GIT_HANDOFF_CHAINED
		# shellcheck disable=SC2086
		$shell -c '. "$GIT_HANDOFF_CHAINED"' "$0" "$@"
	else
		"$chained" "$@"
	fi
}

if [ -n "$piped" ]; then
	printf '%s' "$input" | run_chained "$@"
else
	run_chained "$@"
fi
