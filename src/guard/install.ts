// `install --agent claude|gemini|codex`: merges `git-handoff guard` into each client's project settings and a
// startup note into its instructions file, leaving every other entry alone; `uninstall` removes exactly those.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { configValue, readConfig } from '../git/config';
import type { Repo } from '../git/repo';
import type { DoctorItem, InstallOptions } from '../wiring';

type Agent = 'claude' | 'gemini' | 'codex';

interface Wiring {
  settings: string;
  /** event → tool matcher (undefined: no matcher) */
  events: Record<string, string | undefined>;
  timeout: number;
  named: boolean;
  notes: string;
}

const WIRING: Record<Agent, Wiring> = {
  claude: {
    settings: '.claude/settings.json',
    events: {
      PreToolUse: 'Bash|Write|Edit|MultiEdit|NotebookEdit|PowerShell',
      PostToolUse: 'Bash|Write|Edit|MultiEdit|NotebookEdit|PowerShell',
      SessionStart: undefined,
      Stop: undefined,
      PreCompact: undefined,
    },
    timeout: 30,
    named: false,
    notes: 'CLAUDE.md',
  },
  gemini: {
    settings: '.gemini/settings.json',
    events: {
      BeforeTool: 'write_file|replace|run_shell_command',
      AfterTool: 'write_file|replace|run_shell_command',
      SessionStart: undefined,
      AfterAgent: undefined,
      PreCompress: undefined,
    },
    // Gemini CLI counts hook timeouts in milliseconds.
    timeout: 10_000,
    named: true,
    notes: 'GEMINI.md',
  },
  codex: {
    settings: '.codex/hooks.json',
    events: { PreToolUse: 'Bash|apply_patch|Edit|Write', PostToolUse: 'Bash|apply_patch|Edit|Write', SessionStart: undefined, Stop: undefined },
    timeout: 30,
    named: false,
    notes: 'AGENTS.md',
  },
};

const OURS = /(^|[\s/\\"'])git[- ]handoff(\.cmd|\.exe)?["']?\s+guard\s*$/;
export const SNIPPET_START = '<!-- git-handoff:start -->';
export const SNIPPET_END = '<!-- git-handoff:end -->';

export const SNIPPET = [
  SNIPPET_START,
  '## Handoff notes (git-handoff)',
  '',
  'Handoff notes between sessions live in git, under `refs/handoffs/`, not in files. They are owned: only the',
  'session that wrote a note adds to it, and every version is kept.',
  '',
  '- Read: `git handoff boot` (this branch\'s notes, checked against the repository now), `git handoff show <topic>`, `git handoff list`.',
  '- Write before you stop: `git handoff write <topic> -m "<goal, state, done, ruled out, next action>"` (`git handoff template` shows the sections).',
  '- A note owned by another session: write your own topic, or `git handoff write <topic> --take-over --reason "<why>"`.',
  '- Never move `refs/handoffs/*` with `git update-ref`, force pushes or edits under `.git/`; `git handoff archive` replaces deletion.',
  SNIPPET_END,
].join('\n');

function top(repo: Repo): string {
  if (!repo.worktree) throw new HandoffError('usage', 'bare-repository', 'agent wiring belongs in a worktree; this repository is bare');
  return repo.worktree;
}

function readJson(file: string): Record<string, any> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  try {
    const j = JSON.parse(text);
    if (j && typeof j === 'object' && !Array.isArray(j)) return j;
  } catch {
    /* reported below */
  }
  throw new HandoffError('usage', 'unreadable-settings', `${file} is not a JSON object; fix or move it, then run install again (nothing was changed)`, { file });
}

function writeJson(file: string, value: Record<string, unknown>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** The settings directory install made for a client (.claude, .gemini, .codex) goes too once nothing is left in it. */
function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    /* not there, or not empty: leave it */
  }
}

const isOurs = (h: unknown) => !!h && typeof h === 'object' && typeof (h as { command?: unknown }).command === 'string' && OURS.test((h as { command: string }).command);

function hasOurs(groups: unknown): boolean {
  return Array.isArray(groups) && groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some(isOurs));
}

/** Removes our hook entries, then any group and event left empty by that; returns how many were removed. */
function strip(settings: Record<string, any>): number {
  const hooks = settings.hooks;
  if (!hooks || typeof hooks !== 'object') return 0;
  let removed = 0;
  for (const event of Object.keys(hooks)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept = [];
    for (const g of groups) {
      if (!g || !Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const rest = g.hooks.filter((h: unknown) => !isOurs(h));
      removed += g.hooks.length - rest.length;
      if (rest.length || g.hooks.length === 0) kept.push({ ...g, hooks: rest });
    }
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (Object.keys(hooks).length === 0) delete settings.hooks;
  return removed;
}

/**
 * The command a client's hook runs: `git-handoff guard` (the program `git handoff` runs, found on the same PATH,
 * without a git process in front of every tool call: the guard's whole budget is a few milliseconds over a bare
 * node start), `git handoff guard` when asked for, or a given launcher path with forward slashes, in double
 * quotes (clients run hooks through a shell, where backslashes and spaces would break it).
 */
export function guardCommand(launcher?: string): string {
  if (!launcher || launcher === 'git-handoff') return 'git-handoff guard';
  if (launcher === 'git handoff') return 'git handoff guard';
  const unquoted = launcher.replace(/^"(.*)"$/, '$1').replace(/\\/g, '/');
  return `"${unquoted.replace(/(["\\$`])/g, '\\$1')}" guard`;
}

export function installAgents(repo: Repo, o: InstallOptions): string[] {
  const root = top(repo);
  const command = guardCommand(o.command);
  const msgs: string[] = [];
  for (const agent of o.agents ?? []) {
    const w = WIRING[agent];
    const file = path.join(root, w.settings);
    const settings = readJson(file);
    const before = JSON.stringify(settings);
    strip(settings);
    settings.hooks ??= {};
    for (const [event, matcher] of Object.entries(w.events)) {
      const hook = { ...(w.named ? { name: 'git-handoff' } : {}), type: 'command', command, timeout: w.timeout };
      const groups = Array.isArray(settings.hooks[event]) ? settings.hooks[event] : [];
      groups.push({ ...(matcher ? { matcher } : {}), hooks: [hook] });
      settings.hooks[event] = groups;
    }
    if (JSON.stringify(settings) === before) msgs.push(`${w.settings}: already wired (${agent})`);
    else {
      writeJson(file, settings);
      msgs.push(`${w.settings}: wired \`${command}\` for ${Object.keys(w.events).join(', ')}`);
    }
    msgs.push(installSnippet(path.join(root, w.notes), w.notes));
  }
  return msgs;
}

function installSnippet(file: string, shown: string): string {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const s = text.indexOf(SNIPPET_START);
  const e = text.indexOf(SNIPPET_END);
  let next: string;
  if (s >= 0 && e > s) next = text.slice(0, s) + SNIPPET + text.slice(e + SNIPPET_END.length);
  else next = text === '' ? SNIPPET + '\n' : text.replace(/\n*$/, '\n\n') + SNIPPET + '\n';
  if (next === text) return `${shown}: startup note already there`;
  writeFileSync(file, next);
  return `${shown}: ${s >= 0 ? 'updated' : 'added'} the startup note`;
}

function uninstallSnippet(file: string, shown: string): string | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const s = text.indexOf(SNIPPET_START);
  const e = text.indexOf(SNIPPET_END);
  if (s < 0 || e < s) return null;
  const before = text.slice(0, s).replace(/\n+$/, '');
  const after = text.slice(e + SNIPPET_END.length).replace(/^\n+/, '');
  const next = before && after ? `${before}\n\n${after}` : before || after;
  if (next.trim() === '') rmSync(file);
  else writeFileSync(file, next.endsWith('\n') ? next : next + '\n');
  return `${shown}: removed the startup note`;
}

export function uninstallAgents(repo: Repo, o: InstallOptions): string[] {
  const root = top(repo);
  const msgs: string[] = [];
  const notesDone = new Set<string>();
  for (const agent of o.agents ?? []) {
    const w = WIRING[agent];
    const file = path.join(root, w.settings);
    if (existsSync(file)) {
      const settings = readJson(file);
      const n = strip(settings);
      if (n > 0) {
        if (Object.keys(settings).length === 0) {
          rmSync(file);
          removeIfEmpty(path.dirname(file));
        } else writeJson(file, settings);
        msgs.push(`${w.settings}: removed ${n} git-handoff hook(s)`);
      }
    }
    if (!notesDone.has(w.notes)) {
      notesDone.add(w.notes);
      const m = uninstallSnippet(path.join(root, w.notes), w.notes);
      if (m) msgs.push(m);
    }
  }
  return msgs;
}

export function doctorAgents(repo: Repo): DoctorItem[] {
  if (!repo.worktree) return [];
  const items: DoctorItem[] = [];
  const guard = configValue(readConfig(repo), 'handoff.guard');
  const off = guard !== undefined && /^(off|false|no|0)$/i.test(guard.trim());
  for (const [agent, w] of Object.entries(WIRING) as Array<[Agent, Wiring]>) {
    const file = path.join(repo.worktree, w.settings);
    if (!existsSync(file)) {
      items.push({ component: `agent ${agent}`, status: 'missing', detail: `${w.settings} not present (git handoff install --agent ${agent})` });
      continue;
    }
    let settings: Record<string, any>;
    try {
      settings = readJson(file);
    } catch (e) {
      items.push({ component: `agent ${agent}`, status: 'broken', detail: (e as Error).message });
      continue;
    }
    const wired = Object.keys(w.events).filter((ev) => hasOurs(settings.hooks?.[ev]));
    const missing = Object.keys(w.events).filter((ev) => !wired.includes(ev));
    if (wired.length === 0) items.push({ component: `agent ${agent}`, status: 'missing', detail: `${w.settings} has no git-handoff hook` });
    else if (missing.length) items.push({ component: `agent ${agent}`, status: 'broken', detail: `${w.settings} lacks ${missing.join(', ')} (run install --agent ${agent} again)` });
    else if (off) items.push({ component: `agent ${agent}`, status: 'info', detail: `${w.settings}: ${wired.join(', ')}; the guard is off in this repository (git config handoff.guard off), so it allows everything` });
    else {
      const probe = probeWiring(repo.worktree, agent, settings.hooks[Object.keys(w.events)[0]]);
      items.push({ component: `agent ${agent}`, status: probe.ok ? 'ok' : 'broken', detail: `${w.settings}: ${wired.join(', ')}; ${probe.detail}` });
    }
  }
  return items;
}

const PROBE_REF = 'refs/handoffs/doctor/probe-wiring';

/** A synthetic refusal-worthy payload in each client's shape. */
function probePayload(agent: Agent, cwd: string): Record<string, unknown> {
  const base = { session_id: 'git-handoff-doctor', cwd, tool_input: { command: `git update-ref -d ${PROBE_REF}` } };
  if (agent === 'gemini') return { ...base, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: 'run_shell_command' };
  if (agent === 'codex') return { ...base, hook_event_name: 'PreToolUse', turn_id: 'doctor', tool_name: 'Bash' };
  return { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash' };
}

/** Runs the exact command the client's before-tool hook runs, with a payload it must refuse, and reads the answer. */
function probeWiring(cwd: string, agent: Agent, groups: any[]): { ok: boolean; detail: string } {
  const hook = groups.flatMap((g) => g.hooks ?? []).find(isOurs) as { command: string };
  // The probe is nobody's session: no client process or session of the shell doctor runs in may leak into it
  // (a CLAUDE_PID would make the probe look like a successor of the session that ran doctor).
  const env = { ...process.env };
  for (const k of ['CLAUDE_PID', 'CLAUDE_CODE_SESSION_ID', 'GIT_HANDOFF_SESSION', 'GIT_HANDOFF_BYPASS', 'GEMINI_SESSION_ID', 'CODEX_THREAD_ID']) delete env[k];
  const r = spawnSync('sh', ['-c', hook.command], { cwd, env, input: JSON.stringify(probePayload(agent, cwd)), encoding: 'utf8', timeout: 20_000 });
  if (r.error || r.status !== 0) return { ok: false, detail: `\`${hook.command}\` did not run (${r.error?.message ?? `exit ${r.status}`}: ${String(r.stderr ?? '').trim().slice(0, 200)})` };
  let answer: any = null;
  try {
    answer = JSON.parse(r.stdout);
  } catch {
    return { ok: false, detail: `\`${hook.command}\` answered no decision to a probe it must refuse` };
  }
  const denied = answer?.hookSpecificOutput?.permissionDecision === 'deny' || answer?.decision === 'deny';
  const reason = String(answer?.hookSpecificOutput?.permissionDecisionReason ?? answer?.reason ?? '').split('\n')[0].slice(0, 100);
  return denied
    ? { ok: true, detail: `a probe through \`${hook.command}\` was refused as it should be: "${reason}"` }
    : { ok: false, detail: `\`${hook.command}\` gave an unexpected answer to the probe: ${r.stdout.slice(0, 200)}` };
}
