// Every `git config handoff.*` knob, in one list that the man page and the README table are checked against.
export interface ConfigKey {
  key: string;
  default: string;
  description: string;
}

export const CONFIG_KEYS: ConfigKey[] = [
  { key: 'handoff.leaseTTL', default: '30m', description: 'how long a worktree lease stays live after its last heartbeat (s, m, h, d)' },
  { key: 'handoff.protect', default: '(none)', description: 'more globs of protected handoff files, beside **/memory/handoff-*.md (multi-valued)' },
  { key: 'handoff.autoSync', default: 'false', description: "the pre-push hook also pushes changed handoff refs to the remote being pushed to" },
  { key: 'handoff.sign', default: 'false', description: "sign handoff commits with git's signing setup (gpg.format, user.signingKey)" },
  { key: 'handoff.remote', default: 'origin', description: 'the remote that fetch, push, sync and the sync column use when none is named' },
  { key: 'handoff.fetchOnStart', default: 'true', description: "session start fetches the remote's handoffs of the branch (at most 2 s, never a prompt); false: never" },
  { key: 'handoff.guard', default: 'on', description: '"off" makes the agent guard allow everything in this repository' },
  { key: 'handoff.minFormat', default: '2', description: "1: take in archives of format-1 clients (git-handoff 094717a or older), which name nobody, by push and fetch; 2: refuse them" },
  { key: 'handoff.formatVersion', default: '(unset)', description: "the store's format version, set only by a build whose data older builds would misread; a newer one than this build's is exit 7 for every command" },
];
