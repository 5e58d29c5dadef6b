#!/bin/sh
# Logs one hook call as JSON lines to $HOOK_LOG (default /tmp/hook.log): {"event", "argv", "pid", "ppid", "cwd",
# "cmdline" (how it was started), "parent" (the command line of the process that started it), "env" (the client's variables), "stdin" (the payload as
# given)}. The event is the first argument or, for clients that run a file named after its event, this file's name.
# HOOK_ANSWER_<EVENT> (e.g. HOOK_ANSWER_PreToolUse) is printed on stdout when the stdin mentions BLOCKME (or always,
# with HOOK_ALWAYS=1), HOOK_STDERR on stderr, and HOOK_EXIT_<EVENT> is then the exit code; HOOK_SLEEP sleeps that
# many seconds first.
log=${HOOK_LOG:-/tmp/hook.log}
event=${1:-$(basename "$0")}
input=$(cat)
env_json=$(env | grep -E '^(CLINE|KILO|OPENCODE|FACTORY|DROID|CLAUDE|SESSION|HOOK_|GIT_HANDOFF|PWD=|SHELL=)' | grep -v -E 'TOKEN|API_KEY' | sort |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const o={};for(const l of s.split("\n")){const i=l.indexOf("=");if(i>0)o[l.slice(0,i)]=l.slice(i+1)}process.stdout.write(JSON.stringify(o))})')
self=$(tr '\0' ' ' </proc/$$/cmdline 2>/dev/null)
parent=$(tr '\0' ' ' </proc/$PPID/cmdline 2>/dev/null)
HL_EVENT=$event HL_ARGV="$*" HL_SELF=$self HL_PARENT=$parent HL_ENV=$env_json HL_IN=$input node -e '
const e=process.env;let stdin=e.HL_IN;try{stdin=JSON.parse(e.HL_IN)}catch{}
require("fs").appendFileSync(process.argv[1],JSON.stringify({event:e.HL_EVENT,argv:e.HL_ARGV,pid:+process.argv[2],ppid:+process.argv[3],cwd:process.cwd(),cmdline:e.HL_SELF,parent:e.HL_PARENT,env:JSON.parse(e.HL_ENV||"{}"),stdin})+"\n")' "$log" "$$" "$PPID"
[ -n "${HOOK_SLEEP:-}" ] && sleep "$HOOK_SLEEP"
# a session-start hook of a client that gives one (Claude Code, droid: CLAUDE_ENV_FILE) appends HOOK_ENV_LINE to it
[ -n "${HOOK_ENV_LINE:-}" ] && [ -n "${CLAUDE_ENV_FILE:-}" ] && printf '%s\n' "$HOOK_ENV_LINE" >>"$CLAUDE_ENV_FILE"
[ "${HOOK_ALWAYS:-0}" = 1 ] || case $input in *BLOCKME*) ;; *) exit 0 ;; esac
eval "answer=\${HOOK_ANSWER_$event:-}; code=\${HOOK_EXIT_$event:-0}"
[ -n "$answer" ] && printf '%s\n' "$answer"
[ -n "${HOOK_STDERR:-}" ] && printf '%s\n' "$HOOK_STDERR" >&2
exit "$code"
