// Codex runs a project's hooks only when the user trusted the project and each hook (its /hooks view), and skips
// the others silently. This reads `$CODEX_HOME/config.toml` and computes each hook's trust hash as Codex 0.169.0
// does: sha256 of the canonical (sorted-key) JSON of {event_name, matcher, hooks: [normalized handler]}.
import { spawnSync } from '../process';
import { createHash } from '../lazy-crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { canonical } from './hook-files';
import { trustFile } from './places';
import { upFrom } from './plugin-active';
import { WIRING } from './records';

/** The hooks file install writes for Codex, relative to a worktree. */
const CODEX_HOOKS = WIRING.codex.settings;

/** Codex's snake_case label of an event, as its hook keys and hashes spell it. */
const snake = (event: string) => event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();

// Codex keeps a matcher only for these events (matcher_pattern_for_event).
const MATCHED = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart']);

interface CodexHandler {
  command?: unknown;
  timeout?: unknown;
  async?: unknown;
  statusMessage?: unknown;
}

/** The `trusted_hash` Codex expects for one command hook of `event` in a group with `matcher`. */
export function codexHookHash(event: string, matcher: string | undefined, h: CodexHandler): string {
  const given = typeof h.timeout === 'number' ? Math.max(1, Math.floor(h.timeout)) : 600;
  // Codex 0.169.0 trusts a SessionEnd handler under a 3 s timeout (observed: the file said 30, its trusted_hash is
  // the one of timeout 3), as it bounds the work done while it exits
  const timeout = event === 'SessionEnd' ? Math.min(given, 3) : given;
  const handler = { type: 'command', command: String(h.command ?? ''), timeout, async: h.async === true, statusMessage: typeof h.statusMessage === 'string' ? h.statusMessage : undefined };
  const identity = { event_name: snake(event), matcher: MATCHED.has(event) ? matcher : undefined, hooks: [handler] };
  return 'sha256:' + createHash('sha256').update(canonical(identity)).digest('hex');
}

interface CodexTrust {
  configFile: string;
  /** the project is not marked trusted (Codex then loads none of its hooks) */
  projectUntrusted: boolean;
  /** events whose git-handoff hook was never trusted */
  untrusted: string[];
  /** events whose git-handoff hook changed since it was trusted */
  modified: string[];
  /** events whose git-handoff hook is turned off */
  disabled: string[];
  /** config.toml could not be read as TOML */
  unreadable?: string;
}

/** The trust Codex gives the git-handoff hooks of `<worktree>/.codex/hooks.json` (those `isOurs` picks). */
export function codexTrust(worktree: string, hooks: Record<string, unknown>, isOurs: (h: unknown) => boolean, env: NodeJS.ProcessEnv = process.env): CodexTrust {
  const configFile = trustFile('codex', env);
  const out: CodexTrust = { configFile, projectUntrusted: true, untrusted: [], modified: [], disabled: [] };
  let config: Record<string, any> = {};
  if (existsSync(configFile)) {
    try {
      // loaded only by doctor: the guard never reads Codex's configuration
      const { parse } = require('smol-toml') as typeof import('smol-toml');
      config = parse(readFileSync(configFile, 'utf8')) as Record<string, any>;
    } catch (e) {
      out.unreadable = (e as Error).message.split('\n')[0];
    }
  }
  const dirs = new Set([worktree]);
  try {
    dirs.add(realpathSync(worktree));
  } catch {
    /* the worktree as git named it */
  }
  const projects: Record<string, any> = config.projects ?? {};
  // Codex trusts a project by its directory or one above it: the nearest that says
  out.projectUntrusted = ![...dirs].some((d) => upFrom(d).map((at) => projects[at]?.trust_level).find((level) => level !== undefined) === 'trusted');
  const states: Record<string, any> = config.hooks?.state ?? {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((g, gi) => {
      (Array.isArray(g?.hooks) ? g.hooks : []).forEach((h: CodexHandler, hi: number) => {
        if (!isOurs(h)) return;
        const keys = [...dirs].map((d) => `${path.join(d, CODEX_HOOKS)}:${snake(event)}:${gi}:${hi}`);
        const state = keys.map((k) => states[k]).find((s) => s !== undefined);
        if (state?.enabled === false) out.disabled.push(event);
        else if (typeof state?.trusted_hash !== 'string') out.untrusted.push(event);
        else if (state.trusted_hash !== codexHookHash(event, typeof g.matcher === 'string' ? g.matcher : undefined, h)) out.modified.push(event);
      });
    });
  }
  return out;
}

export const CODEX_TRUST_HOW =
  'Codex runs a project\'s hooks only after you trust them: start `codex` in this repository, trust the project when it asks, ' +
  'then open /hooks and trust each git-handoff hook (editing a hook, even its timeout, untrusts it again; `git handoff doctor` shows which)';

/** Whether `git-handoff` is found by a login shell, where Codex runs the model's commands; null when it is. */
export function loginShellProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const shell = env.SHELL && /(^|\/)(bash|zsh|sh|dash|ksh)$/.test(env.SHELL) ? env.SHELL : 'bash';
  const r = spawnSync(shell, ['-lc', 'command -v git-handoff'], { env, encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status === 0 && r.stdout.trim()) return null;
  // where this shell finds it, else the launcher running now
  const launcher = process.argv[1] && path.basename(process.argv[1]) === 'git-handoff' ? process.argv[1] : '';
  const here = spawnSync('sh', ['-c', 'command -v git-handoff'], { env, encoding: 'utf8', timeout: 10_000 }).stdout?.trim() || launcher;
  const profile = path.basename(shell) === 'zsh' ? '~/.zprofile' : '~/.profile (or ~/.bash_profile)';
  return (
    `\`${shell} -lc 'command -v git-handoff'\` finds nothing: Codex runs commands in a login shell, which reads PATH from the system profile, so \`git handoff\` fails there. ` +
    `Add ${here ? `export PATH="${path.dirname(here)}:$PATH"` : 'the directory that holds git-handoff to PATH'} to ${profile}`
  );
}
