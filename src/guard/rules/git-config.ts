// git configuration a session may not set: keys that make git run a program or turn the protection off (RUNNING_KEYS,
// from git-config(1) and the pages it points to), keys not known to be quiet, and remote settings (the person's).
import path from 'node:path';
import { expands } from '../shell/lex';
import { userConfigFiles } from '../../git/config-files';
import { READING_VERBS, type GitInvocation } from '../shell/git';
import { gitOptions, lastValue } from './git-options';

interface RunningKey {
  /** the key, lowercased (subsections too: the list never depends on their case) */
  key: RegExp;
  /** what the key makes git do, said in the refusal */
  runs: string;
  /** refused whatever configuration holds it (it turns git-handoff's protection off), not only this repository's */
  protection?: boolean;
  /** only for these values (unknown values, with `$` or backquotes, always count) */
  when?: (value: string) => boolean;
  /** the safe way said in the refusal, for one command */
  instead?: string;
  /** the command line git runs for a value (read as `sh -c '<value>'` would be: runValueCommands in shell/values.ts), or null when
   *  this value runs none; absent: the key's value is no command line */
  script?: (value: string) => string | null;
  /** environment variables that stand for the key (git and other programs run their value the same way) */
  env?: string[];
}

const BOOL = /^\s*(true|false|yes|no|on|off|1|0)?\s*$/i;
const notBool = (v: string) => !BOOL.test(v);
const shellAlias = (v: string) => /^\s*!/.test(v);
/** The value is the command line (git runs it through the shell). */
const asCommand = (v: string) => v;
/** `!<command>` runs a command line; any other value names no command here. */
const bang = (v: string) => (shellAlias(v) ? v.replace(/^\s*!/, '') : null);

/** Every key that makes git run a program, or turns git-handoff's protection off. */
export const RUNNING_KEYS: RunningKey[] = [
  { key: /^core\.hookspath$/, runs: "takes git's hooks from another directory: git-handoff's reference-transaction, commit and pre-push checks stop running", protection: true },
  { key: /^(include\.path|includeif\..+\.path)$/, runs: 'reads another configuration file, which may set any key (core.hooksPath, programs to run)', protection: true },
  {
    key: /^(core\.notesref|notes\.rewriteref)$/,
    runs: 'points git notes at another notes ref: the read receipts (refs/notes/handoff-reads) would be written by plain git',
    protection: true,
    when: (v) => /handoff/i.test(v),
  },
  { key: /^core\.fsmonitor$/, runs: 'runs a program on every git status, diff and add', when: notBool, script: asCommand },
  { key: /^core\.pager$/, runs: 'runs a program on the output of every git command that pages', instead: 'git --no-pager <command>, or GIT_PAGER=<pager> git <command>', script: asCommand, env: ['GIT_PAGER', 'PAGER'] },
  { key: /^pager\.[^.]+$/, runs: 'runs a program on the output of that git command', when: notBool, instead: 'git --no-pager <command>, or GIT_PAGER=<pager> git <command>', script: asCommand },
  { key: /^(core|sequence)\.editor$/, runs: 'runs a program for every message or todo list git asks for', instead: 'GIT_EDITOR=<editor> git <command> (GIT_SEQUENCE_EDITOR for rebase -i)', script: asCommand, env: ['GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'EDITOR', 'VISUAL'] },
  // git appends the host and the program it runs there: judged with them (an ssh given a remote command reads no typed input)
  { key: /^core\.sshcommand$/, runs: 'runs a program for every ssh connection', instead: "GIT_SSH_COMMAND='<command>' git <command>", script: (v) => `${v} host.invalid git-upload-pack`, env: ['GIT_SSH_COMMAND', 'GIT_SSH'] },
  { key: /^core\.askpass$/, runs: 'runs a program for every password git asks for', script: asCommand, env: ['GIT_ASKPASS', 'SSH_ASKPASS'] },
  { key: /^core\.gitproxy$/, runs: 'runs a program for every git:// connection', script: asCommand, env: ['GIT_PROXY_COMMAND'] },
  { key: /^core\.alternaterefscommand$/, runs: 'runs a program', script: asCommand },
  { key: /^credential\.(.+\.)?helper$/, runs: 'runs a program for every credential git needs', script: (v) => bang(v) ?? (v.trim().startsWith('/') ? v : `git credential-${v}`) },
  { key: /^alias\..+$/, runs: 'defines a git command that runs a shell command', when: shellAlias, instead: 'run the command itself' },
  { key: /^filter\..+\.(clean|smudge|process)$/, runs: 'runs a program on files as git reads or writes them', script: asCommand },
  { key: /^(diff\.external|diff\..+\.(textconv|command))$/, runs: 'runs a program for diffs', script: asCommand, env: ['GIT_EXTERNAL_DIFF'] },
  { key: /^merge\..+\.driver$/, runs: 'runs a program for merges', script: asCommand },
  { key: /^(diff|merge)tool\..+\.(cmd|path)$/, runs: 'runs a program for difftool or mergetool', script: asCommand },
  { key: /^(gpg\.program|gpg\.[^.]+\.program|gpg\.ssh\.defaultkeycommand)$/, runs: 'runs a program to sign or verify', script: asCommand },
  { key: /^sendemail\.(sendmailcmd|smtpserver|tocmd|cccmd|headercmd)$/, runs: 'runs a program for send-email', script: asCommand },
  { key: /^remote\..+\.(uploadpack|receivepack|vcs)$/, runs: 'runs a program for fetches and pushes to that remote', script: asCommand },
  { key: /^protocol\.(ext\.)?allow$/, runs: 'allows the ext:: transport, whose URLs are commands', when: (v) => !/^\s*never\s*$/i.test(v) },
  { key: /^imap\.tunnel$/, runs: 'runs a program for imap-send', script: asCommand },
  { key: /^(browser\..+\.(cmd|path)|man\..+\.(cmd|path)|guitool\..+\.cmd|instaweb\.httpd)$/, runs: 'runs a program', script: asCommand },
  { key: /^interactive\.difffilter$/, runs: 'runs a program on every interactive diff', script: asCommand },
  { key: /^submodule\..+\.update$/, runs: 'runs a shell command on every submodule update', when: shellAlias, script: bang },
  { key: /^trailer\..+\.(command|cmd)$/, runs: 'runs a program for every trailer added', script: asCommand },
  { key: /^uploadpack\.packobjectshook$/, runs: 'runs a program for every fetch served', script: asCommand },
];

/** The listed key a setting falls under, when its value makes it count; null for a harmless setting. */
export function runningKey(key: string, value: string | undefined): RunningKey | null {
  const k = key.toLowerCase();
  const rule = RUNNING_KEYS.find((r) => r.key.test(k));
  if (!rule) return null;
  if (rule.when && value !== undefined && !expands(value) && !rule.when(value)) return null;
  return rule;
}

// Keys known to make git neither run a program nor write a file (beside RUNNING_KEYS and the keys refs.ts rules on):
// whole sections, then the loud keys of those sections.
const QUIET_SECTIONS =
  /^(user|author|committer|color|advice|column|i18n|log|pull|push|fetch|rebase|rerere|status|branch|tag|grep|blame|am|apply|versionsort|checkout|clone|worktree|diff|merge|difftool|mergetool|remote|url|submodule|pack|transfer|receive|uploadpack|index|feature|maintenance|mailmap|showbranch|add|reset|stash|revert|cherry-pick|alias|handoff|interactive|splitindex|fsck|protocol|safe|credential|pager|filter|gpg|sequence|trailer|notes|commit|format|http|core|init|gc|sendemail|imap|browser|man|guitool|instaweb|include|includeif)$/;
/** Keys of those sections that write a file, change where git writes, or turn something off that the guard relies on. */
const LOUD_KEYS =
  /^(format\.outputdirectory|http\.(.+\.)?(cookiefile|savecookies)|notes\.rewriteref|notes\.rewrite\..*|core\.(worktree|bare|sharedrepository|sparsecheckout|sparsecheckoutcone|repositoryformatversion|logallrefupdates|hookspath|splitindex)|init\.templatedir|gc\.(prunexpire|pruneexpire|reflogexpire|reflogexpireunreachable|worktreepruneexpire|logexpiry)|receive\..+|maintenance\..+\.(schedule|enabled)|safe\.barerepository)$/i;

/** Why setting `key` (to `value`) is not known to leave git neither running a program nor writing a file, or null. */
function unknownKeyProblem(key: string, value: string | undefined): string | null {
  const k = key.toLowerCase();
  const section = k.split('.', 1)[0];
  // keys whose value git runs, and those that turn the protection off: their own rules (git-config.ts, runValueCommands in shell/values.ts)
  if (runningKey(k, value) || /^(core\.hookspath|include\.path|includeif\..+\.path|core\.notesref)$/.test(k)) return null;
  if (QUIET_SECTIONS.test(section) && !LOUD_KEYS.test(k)) return null;
  return `${neutralKey(k)} is not a setting the guard knows to make git neither run a program nor write a file`;
}

/** Keys that say which remotes there are, where they lead and which one a branch fetches from or pushes to: the person's (SPEC 6). */
const REMOTE_KEY = /^(remote\..+|url\..+\.(push)?insteadof|branch\..+\.(remote|pushremote))$/;
/** Sections whose removal or renaming takes such keys with them. */
const REMOTE_SECTION = /^(remote|url|branch)(\.|$)/;
/** The refusal of a change to the remotes (`what` says which), shared by `git remote`, `git config` and `git -c`. */
export const remoteChangeProblem = (show: string, what: string): string =>
  `\`${show}\` changes ${what}. Which remotes there are and where they lead decide what sync, pull and fetch take in as other sessions' ` +
  `handoffs and commits: remotes are the person's to change, from their own terminal. Tell them what you need and why; reading them ` +
  `(\`git remote -v\`, \`git config --get <key>\`) and fetching from one they configured pass.`;

/** Why a `git config` command adds, changes, renames or removes a remote setting in a configuration git reads here, or null. */
function remoteSettingProblem(c: ConfigCommand, scope: Scope, show: string): string | null {
  if (scope === 'blob' || scope === 'file' || c.reads || !c.changes) return null;
  const section = c.renamesSection || c.removesSection;
  const key = (section ? c.ops.slice(0, 2) : c.ops.slice(0, 1)).find((k) => expands(k) || (section ? REMOTE_SECTION : REMOTE_KEY).test(k.toLowerCase()));
  return key !== undefined ? remoteChangeProblem(show, `the remote setting ${neutralKey(key)}`) : null;
}

type Scope = 'repo' | 'global' | 'system' | 'file' | 'blob';

/** A `git config` command as git reads it: the configuration it works on, its subcommand (set, unset, …) and operands, what it does. */
export function configCommand(args: string[], cwd: string | null = null) {
  const o = gitOptions({ sub: 'config', args });
  const ops = o.operands;
  const sub = /^(set|unset|get|list|edit|rename-section|remove-section)$/.test(ops[0] ?? '') ? ops.shift()! : null;
  const said = (verb: string, ...options: string[]) => sub === verb || options.some((x) => args.includes(x));
  const file = lastValue(o, '-f', '--file');
  const blob = lastValue(o, '--blob');
  const global = o.flags.includes('--global') ? 'global' : o.flags.includes('--system') ? 'system' : 'repo';
  const c = {
    ops,
    sub,
    file,
    blob,
    flags: o.flags,
    scope: (blob !== undefined ? 'blob' : file !== undefined ? fileScope(file, cwd) : global) as Scope,
    reads: said('get') || said('list', '-l', '--list', '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool'),
    removes: said('unset', '--unset', '--unset-all'),
    removesSection: said('remove-section', '--remove-section'),
    renamesSection: said('rename-section', '--rename-section'),
    edits: said('edit', '-e', '--edit'),
    /** sets a key (a value given, or an option that adds one) */
    sets: ops.length >= 2 || said('set', '--add', '--replace-all', '--append', '--all'),
  };
  return { ...c, changes: c.sets || c.removes || c.removesSection || c.renamesSection || c.edits || sub !== null };
}

type ConfigCommand = ReturnType<typeof configCommand>;

/** remoteSettingProblem for `git config --file` of a file git reads here by an include (`reads`: the perimeter's list). */
export function includedRemoteSettingProblem(args: string[], cwd: string | null, show: string, reads: Set<string>): string | null {
  const c = configCommand(args, cwd);
  return c.scope === 'file' && reads.has(configPath(c.file ?? '', cwd)) ? remoteSettingProblem(c, 'global', show) : null;
}

/** A file named to `git config --file`, absolute (`~` and $HOME read as the home). */
function configPath(file: string, cwd: string | null): string {
  const home = process.env.HOME ?? '~';
  return path.resolve(cwd ?? '/', file.replace(/^~(?=\/|$)/, home).replace(/^\$\{?HOME\}?(?=\/|$)/, home));
}

/**
 * What a file named to `git config --file` is: the user's or the system's configuration (git reads it in every
 * repository), a configuration git reads in a repository (or may be one), or a file git does not read here.
 */
function fileScope(file: string, cwd: string | null): Scope {
  const abs = configPath(file, cwd);
  const scope = userConfigFiles(process.env).find((f) => abs === path.resolve(f.file))?.scope;
  if (scope === 'global' || scope === 'system') return scope;
  if (expands(file) || file === '') return 'repo';
  return /(^|\/)\.git(\/|$)|(^|\/)worktrees\/|(^|\/)config(\.worktree)?$/.test(abs) ? 'repo' : 'file';
}

const refusal = (show: string, what: string, key: string, rule: RunningKey | null, scope: string): string =>
  `\`${show}\` ${what}${rule ? `: ${key} ${rule.runs}` : ''}, ${scope}. ` +
  (rule?.protection
    ? 'That turns git-handoff\'s protection off for every session: ask the person to change it.'
    : `For one command, give it to that command (${rule?.instead ?? `git -c ${key}=<value> <command>`}); to keep it, ask the person to set it.`);

/** Why a `git config` command sets what makes git run a program, turns the protection off or changes a remote, or null. */
export const configCommandProblem = (c: ConfigCommand, show: string): string | null => runningSettingProblem(c, show) ?? remoteSettingProblem(c, c.scope, show);

/** Why a `git config` command sets what makes git run a program or turns the protection off, or null. */
function runningSettingProblem(c: ConfigCommand, show: string): string | null {
  const { scope, ops } = c;
  if (scope === 'blob' || c.reads || c.removes || c.removesSection) return null;
  const where = scope === 'repo' ? "in this repository's configuration" : scope === 'file' ? 'in that file' : `in the ${scope} configuration`;
  if (c.edits) {
    if (scope === 'file') return null;
    return `\`${show}\` opens ${scope === 'repo' ? "this repository's configuration" : `the ${scope} configuration`} in an editor, which can set keys that make git run programs or write files, or turn git-handoff's protection off. Set a key with \`git config <key> <value>\`; ask the person for anything else.`;
  }
  if (c.renamesSection) {
    // the keys a renamed section holds become keys of another: `color.hooksPath` (a quiet section takes any key) renamed
    // to `core` is core.hooksPath; which keys a section holds is not read here, so a file git reads is not renamed in
    if (scope === 'file') return null;
    return `\`${show}\` renames a section ${where}: its keys become keys of ${neutralKey(ops[1] ?? '')} (\`color.hooksPath\` renamed to \`core\` is core.hooksPath), which the guard cannot check key by key. Set the keys you need with \`git config <key> <value>\`, or ask the person.`;
  }
  const key = ops[0] ?? '';
  if (!c.sets || key === '') return null;
  const value = ops[1];
  const rule = expands(key) ? null : runningKey(key, value);
  if (expands(key) && scope === 'repo') return `\`${show}\` sets a key the guard cannot read before the shell runs it, ${where}. Name the key.`;
  if (!rule) {
    // a file git does not read here (`--file /tmp/x`) may hold anything; git's own configuration only known-quiet keys
    const problem = scope === 'file' ? null : unknownKeyProblem(key, value);
    return problem ? `\`${show}\` sets a key ${where}: ${problem} (trace2 targets, cookie files, where git writes or what it checks out). Ask the person to set it by hand.` : null;
  }
  // the global and system configuration: the value is judged as the command it runs (persistentSetting, runValueCommands in shell/values.ts)
  if (!rule.protection && scope !== 'repo') return null;
  return refusal(show, 'sets what makes git run a program', neutralKey(key), rule, where);
}

const neutralKey = (k: string) => k.replace(/[^\w.*:/@-]/g, '?').slice(0, 120);

/** Verbs on which a one-off setting changes nothing the guard protects (`git config` and `git handoff` judge their own). */
const reads = (sub: string) => READING_VERBS.has(sub) || sub === 'config' || sub === 'handoff';

/**
 * Why the settings given to one git command (`-c`, --config-env, GIT_CONFIG_*) repoint a remote, change git-handoff's
 * own, turn the protection off or are not known to be quiet, or null.
 */
export function oneOffConfigProblem(inv: GitInvocation, show: string): string | null {
  for (const { key, value } of inv.config) {
    // a remote repointed for one command fetches or pushes where the person did not choose (`git handoff` fetches too)
    if ((inv.sub === 'handoff' || !reads(inv.sub)) && REMOTE_KEY.test(key.toLowerCase())) return remoteChangeProblem(show, `the remote setting ${neutralKey(key)} for this one command`);
    // git-handoff's own settings, read by its git hooks and by `git handoff` itself under this git
    if (key.toLowerCase().startsWith('handoff.') && !READING_VERBS.has(inv.sub)) {
      return `\`${show}\` runs \`git ${inv.sub}\` with git-handoff's own setting ${neutralKey(key.toLowerCase())} changed for it (guard, claims, protected files, sync remote): those are the person's to change. Run it without that setting.`;
    }
    const rule = reads(inv.sub) ? null : runningKey(key, value);
    if (rule?.protection) return `\`${show}\` runs \`git ${inv.sub}\` with ${neutralKey(key)} set for it: that ${rule.runs}. Run it without that setting.`;
    const problem = unknownKeyProblem(key, value);
    if (problem) return `\`${show}\` gives git a setting for this command: ${problem} (trace2 targets, cookie files and the like write files). Run it without that setting, or ask the person.`;
  }
  return null;
}

/** A key and value `git config` sets in the global or system configuration (git reads them here too), or null. */
export function persistentSetting(args: string[], cwd: string | null): { key: string; value: string } | null {
  const c = configCommand(args, cwd);
  if ((c.scope !== 'global' && c.scope !== 'system') || (c.sub !== null && c.sub !== 'set') || c.removes || c.removesSection) return null;
  return c.ops.length >= 2 ? { key: c.ops[0], value: c.ops[c.ops.length - 1] } : null;
}

/**
 * When a `git config` command removes core.hooksPath (--unset/--unset-all/unset, or the whole core section): its scope
 * options (--global, --file X, …), to ask git what that scope holds; otherwise null.
 */
export function hooksPathRemovalScope(args: string[]): string[] | null {
  const c = configCommand(args);
  const key = c.ops[0] ?? '';
  const removes = expands(key) ? c.removes || c.removesSection : c.removes ? /^core\.hookspath$/i.test(key) : c.removesSection && /^core$/i.test(key);
  if (!removes) return null;
  const file = c.file !== undefined ? ['--file', c.file] : [];
  return [...c.flags.filter((a) => /^--(global|system|local|worktree)$/.test(a)), ...file, ...(c.blob !== undefined ? ['--blob', c.blob] : [])];
}

/** Why removing core.hooksPath moves git from `hooksDir`, where git-handoff's stubs are, to `defaultDir` without them, or null. */
export function hooksPathRemovalProblem(show: string, hooksDir: string | null, defaultDir: string, stubsIn: (dir: string) => string[]): string | null {
  if (hooksDir === null || path.resolve(hooksDir) === path.resolve(defaultDir)) return null;
  const there = stubsIn(hooksDir);
  if (there.length === 0 || stubsIn(defaultDir).length >= there.length) return null;
  return `\`${show}\` removes core.hooksPath, which points git at ${neutralKey(hooksDir)} where git-handoff's hooks are (${there.join(', ')}): git would go back to ${neutralKey(defaultDir)} and they would stop running. That turns git-handoff's protection off for every session: ask the person to change it (\`git handoff install --hooks\` installs the hooks where git looks).`;
}
