// Trust gates: a client that runs a project's hooks only once trusted runs no guard until then, silently; doctor and
// `install --agent` say the step that opens each.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Agent, ClientName } from './names';
import { trustFile, userDir } from './places';
import { readJsonOr } from '../read-file';
import { RECORDS } from './records';
import type { DoctorItem } from '../wiring';
import { CODEX_TRUST_HOW, codexTrust, loginShellProblem } from './codex-trust';

interface TrustContext {
  env: NodeJS.ProcessEnv;
  /** the client's hooks as wired in its settings file (`settings.hooks`), for a gate kept per hook (Codex) */
  hooks?: Record<string, unknown>;
  /** whether a hook entry is git-handoff's */
  isOurs?: (h: unknown) => boolean;
  /** the client will run an extension or plugin of ours instead of the project hooks (those run in any folder) */
  pluginAnswers?: boolean;
}

/** The trust rows of one client in one worktree (empty: it has no gate). */
type TrustGate = (worktree: string, ctx: TrustContext) => DoctorItem[];

const codexGate: TrustGate = (worktree, ctx) => {
  const t = codexTrust(worktree, ctx.hooks ?? {}, ctx.isOurs ?? (() => false), ctx.env);
  if (!existsSync(path.dirname(t.configFile))) {
    return [{ component: 'agent codex trust', status: 'broken', detail: `Codex has not run here yet (no ${path.dirname(t.configFile)}): it will skip every git-handoff hook, silently, until the project and each hook are trusted. Fix: ${CODEX_TRUST_HOW}` }];
  }
  const problems = [
    t.unreadable ? `${t.configFile} is not valid TOML (${t.unreadable})` : null,
    t.projectUntrusted ? `the project ${worktree} is not trusted in ${t.configFile}` : null,
    t.untrusted.length ? `hooks not trusted: ${t.untrusted.join(', ')}` : null,
    t.modified.length ? `hooks changed since they were trusted: ${t.modified.join(', ')}` : null,
    t.disabled.length ? `hooks turned off: ${t.disabled.join(', ')}` : null,
  ].filter(Boolean);
  return [
    problems.length
      ? { component: 'agent codex trust', status: 'broken', detail: `Codex skips these hooks silently: ${problems.join('; ')}. Fix: ${CODEX_TRUST_HOW}` }
      : { component: 'agent codex trust', status: 'ok', detail: `the project and every git-handoff hook are trusted in ${t.configFile}` },
  ];
};

/**
 * Folder trust as Gemini CLI and its fork Qwen Code resolve it, for `worktree` (their user settings.json
 * security.folderTrust, on by default where `enabledByDefault`, and the rules of their trust file).
 */
function folderTrust(client: ClientName, worktree: string, enabledByDefault: boolean, env: NodeJS.ProcessEnv) {
  const settings = path.join(userDir(client, env), 'settings.json');
  const trusts = trustFile(client, env);
  const said = readJsonOr(settings)?.security?.folderTrust?.enabled;
  if (!(said === undefined ? enabledByDefault : said === true)) return { state: 'off', settings, trustFile: trusts } as const;
  const rules: Record<string, unknown> = readJsonOr(trusts) ?? {};
  // the deepest rule covering the folder wins (TRUST_PARENT covers the rule's parent), and at equal depth DO_NOT_TRUST
  const here = path.resolve(worktree);
  let best: { depth: number; trusted: boolean } | null = null;
  for (const [p, level] of Object.entries(rules)) {
    const root = level === 'TRUST_PARENT' ? path.dirname(path.resolve(p)) : path.resolve(p);
    const rel = path.relative(root, here);
    if (rel.startsWith('..') || path.isAbsolute(rel) || (level !== 'TRUST_FOLDER' && level !== 'TRUST_PARENT' && level !== 'DO_NOT_TRUST')) continue;
    const depth = root.split(path.sep).filter(Boolean).length;
    const trusted = level !== 'DO_NOT_TRUST';
    if (!best || depth > best.depth || (depth === best.depth && !trusted)) best = { depth, trusted };
  }
  return { state: best?.trusted ? 'trusted' : 'untrusted', settings, trustFile: trusts } as const;
}

/** A folder trust gate (on by default or not): in an untrusted folder the client runs no project hook; `how` trusts it. */
const folderGate =
  (client: ClientName, onByDefault: boolean, title: string, how: (worktree: string, trustFile: string) => string): TrustGate =>
  (worktree, ctx) => {
    const component = `agent ${RECORDS[client].agent} trust`;
    const t = folderTrust(client, worktree, onByDefault, ctx.env);
    if (t.state === 'off') return [{ component, status: 'ok', detail: `folder trust is off in ${t.settings}${onByDefault ? '' : ` (${title}'s default)`}: ${title} runs this project's hooks` }];
    if (t.state === 'trusted') return [{ component, status: 'ok', detail: `${worktree} is trusted in ${t.trustFile}` }];
    if (ctx.pluginAnswers) return [{ component, status: 'ok', detail: `${worktree} is not a trusted folder, but the git-handoff extension answers here (extension hooks run in untrusted folders)` }];
    // a shell with git's hooks off (Gemini CLI's) leaves only the loss record
    const hooksOff = RECORDS[client].shellHooksOff ? ", and runs the model's commands with git's hooks off (core.hooksPath emptied), so only the loss record catches a raw ref move" : '';
    return [{ component, status: 'broken', detail: `${worktree} is not a trusted folder (${t.trustFile}): ${title} skips this project's hooks here${hooksOff}. Fix: ${how(worktree, t.trustFile)}` }];
  };

const geminiGate = folderGate('gemini-cli', true, 'Gemini CLI', (worktree, trustFile) =>
  `trust the folder when Gemini CLI asks (or /permissions), or add "${worktree}": "TRUST_FOLDER" to ${trustFile}; \`gemini --skip-trust\` runs without them. The git-handoff extension (git handoff install --agent gemini --extension) runs in untrusted folders too`,
);
const qwenGate = folderGate('qwen-code', false, 'Qwen Code', (worktree, trustFile) => `trust it when Qwen Code asks, or add "${worktree}": "TRUST_FOLDER" to ${trustFile}`);

/** How to trust a folder for Copilot CLI: its repository hooks run only there (skipped silently elsewhere). */
const copilotTrustHow = (worktree: string, env: NodeJS.ProcessEnv = process.env) =>
  `Copilot CLI runs repository hooks only in a trusted folder and skips them silently elsewhere: answer "trust" when it asks, or add ${JSON.stringify(worktree)} to "trustedFolders" in ${trustFile('copilot', env)}`;

/** Copilot CLI trusts `worktree` when it (or a parent) is listed in trustedFolders of $COPILOT_HOME/config.json. */
const copilotGate: TrustGate = (worktree, ctx) => {
  const file = trustFile('copilot', ctx.env);
  let folders: unknown = [];
  try {
    // config.json may carry // comments in front of the JSON
    folders = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, ''))?.trustedFolders ?? [];
  } catch {
    folders = null;
  }
  const here = path.resolve(worktree);
  const trusted = Array.isArray(folders) && folders.some((f) => typeof f === 'string' && (here === path.resolve(f) || !path.relative(path.resolve(f), here).startsWith('..')));
  if (trusted) return [{ component: 'agent copilot trust', status: 'ok', detail: `${worktree} is a trusted folder in ${file}: Copilot CLI runs ${RECORDS.copilot.wiring!.settings}` }];
  return [{ component: 'agent copilot trust', status: 'broken', detail: `${worktree} is not a trusted folder${folders !== null || existsSync(file) ? ` in ${file}` : ` (no ${file})`}. ${copilotTrustHow(worktree, ctx.env)}` }];
};

/** Codex runs the model's commands in a login shell: git-handoff must be on its PATH. */
function codexPath(): DoctorItem {
  const shell = loginShellProblem();
  return shell ? { component: 'agent codex PATH', status: 'broken', detail: shell } : { component: 'agent codex PATH', status: 'ok', detail: 'a login shell finds git-handoff' };
}

const GATES: Partial<Record<Agent, TrustGate>> = {
  codex: (worktree, ctx) => [...codexGate(worktree, ctx), codexPath()],
  gemini: geminiGate,
  copilot: copilotGate,
  qwen: qwenGate,
};

/** What install --agent says of a gate the person opens in the client itself: each hook trusted (Codex), the folder (Copilot CLI). */
const INSTALL_NOTES: Partial<Record<Agent, (worktree: string) => string>> = { codex: () => CODEX_TRUST_HOW, copilot: (worktree) => copilotTrustHow(worktree) };
export const trustNote = (agent: Agent, worktree: string): string | null => INSTALL_NOTES[agent]?.(worktree) ?? null;

/** doctor's trust rows for one wired client. */
export function trustGateItems(agent: Agent, worktree: string, ctx: TrustContext): DoctorItem[] {
  return GATES[agent]?.(worktree, ctx) ?? [];
}

/** What install --agent prints: each gate that would skip the hooks, with its step. */
export function trustGateSteps(agent: Agent, worktree: string, ctx: TrustContext): string[] {
  return trustGateItems(agent, worktree, ctx).filter((i) => i.status !== 'ok').map((i) => `${i.component}: ${i.detail}`);
}
