// `install --agent <client>`: merges `git-handoff guard` into each client's project settings and a
// startup note into its instructions file, leaving every other entry alone; `uninstall` removes exactly those.
import { spawnSync } from '../process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { readConfig } from '../git/config';
import { setting } from '../config-keys';
import type { Repo } from '../git/repo';
import { installWrite, restoreOriginal } from '../handoff/state/install-record';
import type { DoctorItem } from '../wiring';
import { trustGateItems, trustGateSteps, trustNote } from '../clients/trust-gates';
import { placed } from '../clients/places';
import { DEFAULT_PROTECT } from '../guard/context';
import { handoffDir } from '../handoff/state/paths';
import { readJsonOr, readTextOr } from '../read-file';
import { AGENT_CLIENT, SESSION_VARS, type Agent, type ClientName } from '../clients/names';
import { matcherRoutes, PROBE_COMMAND, type ClientRecord } from '../clients/record';
import { wordCut, wrapWords } from '../terminal-text';
import { ALL_RECORDS, RECORDS, WIRING } from '../clients/records';
import { afterCommand, hookCommand, hookGroups, hookTimeoutProblem, PAYLOAD_FLAG, SOURCED_FLAG, SPLIT_FLAGS, type Wiring, wiredWithGuard } from '../clients/wiring';
import { pluginAnswers } from '../clients/plugin-active';
import { dropEmpty, eventsAt, holdsGuard, installFiles, jsonText, jsonWithout, merged, readObject, strip, uninstallFiles, unwireFile, valueAt, wiredFiles, writeOwnFile } from './native';

/** The after-tool hook's flag: the sh front answers without reading the payload when no note is pending (node ignores it). */
const AFTER_FLAG = '--after';
/**
 * The command for one event of a wiring: the after-tool event's says so (and looks for a pending note in bash first);
 * else bash reads the payload, under the client's bash or the one its sh hands over to (hookCommand).
 */
export const eventCommand = (w: Wiring, event: string, command: string) => (event === w.after ? afterCommand(command) : hookCommand(w, command));
/** The hook groups install writes for `event` with `matcher` (hookGroups: two for a split event), each [matcher, command]. */
export const eventGroups = (w: Wiring, event: string, matcher: string | undefined, command: string) =>
  hookGroups(w, event, matcher, (group) => (group ? hookCommand(w, command, group) : eventCommand(w, event, command)));
/** A settings wiring's hook groups by event (a plugin's hooks.json too), each hook running `command`. */
export function settingsHooks(w: Wiring, command: string): Record<string, unknown[]> {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, matcher] of Object.entries(w.events)) {
    hooks[event] = eventGroups(w, event, matcher, command).map((g) => ({
      ...(g.matcher ? { matcher: g.matcher } : {}),
      hooks: [{ ...(w.named ? { name: 'git-handoff' } : {}), type: 'command', command: g.command, timeout: w.eventTimeouts?.[event] ?? w.timeout }],
    }));
  }
  return hooks;
}
/** The client's own word for the user-wide package `install --plugin` adds (a plugin, an extension). */
const pluginNoun = (w: Wiring): string => RECORDS[w.client].plugin?.word ?? 'plugin';

const GUARD_OFF = 'the guard is off in this repository (git config handoff.guard off), so it allows everything';

const SNIPPET_START = '<!-- git-handoff:start -->';
const SNIPPET_END = '<!-- git-handoff:end -->';

const SNIPPET = [
  SNIPPET_START,
  '## Handoff notes (git-handoff)',
  '',
  'Handoff notes between sessions live in git under `refs/handoffs/`, owned by the session that wrote them. Use the',
  '`handoff` skill: write yours before you stop, before compaction and at milestones (`git handoff write <topic> -m "…"`,',
  'sections from `git handoff template`); read with `git handoff boot` and `git handoff show <topic>`. Refused? Write your',
  'own topic, or `--take-over --reason "<why>"`. Never move `refs/handoffs/*` by hand (`git handoff archive` replaces deletion).',
  SNIPPET_END,
].join('\n');

const SKILL_MARK = 'name: handoff\n';

/** The `handoff` skill this build ships: beside a plugin's bundles, in dist/claude-plugin, or in the source tree. */
function skillText(): string {
  for (const p of [path.resolve(__dirname, '..', 'skills'), path.resolve(__dirname, 'claude-plugin', 'skills'), path.resolve(__dirname, '..', 'plugin', 'skills')]) {
    const f = path.join(p, 'handoff', 'SKILL.md');
    if (existsSync(f)) return readFileSync(f, 'utf8');
  }
  throw new HandoffError('environment', 'skill-missing', `the handoff skill (skills/handoff/SKILL.md) is missing next to ${__dirname}; reinstall git-handoff`);
}

function installSkill(root: string, agent: Agent, commonDir: string): string[] {
  if (!WIRING[agent].skills) return [];
  const shown = `${WIRING[agent].skills}/handoff/SKILL.md`;
  // the skill an earlier install put where the client now reads it second (Gemini CLI's .gemini/skills): taken away
  const former = removeSkill(root, WIRING[agent].formerSkills, commonDir);
  const done = writeOwnFile(commonDir, path.join(root, shown), skillText(), (t) => t.includes(SKILL_MARK));
  const said = { same: 'the handoff skill already there', foreign: 'left alone (another skill of that name is there)', written: 'the handoff skill' }[done];
  return [`${shown}: ${said}`, ...(former ? [former] : [])];
}

/** Removes git-handoff's handoff skill from a skills folder (`dir` null: the client has no such folder), or null where there is none. */
function removeSkill(root: string, dir: string | null | undefined, commonDir: string): string | null {
  if (!dir) return null;
  const shown = `${dir}/handoff/SKILL.md`;
  const ours = (t: string) => t.startsWith(`---\n${SKILL_MARK}`);
  // handoff/, skills/, then the client folder install made go too, each only once empty
  return unwireFile(root, shown, commonDir, (t) => (ours(t) ? ['', 'removed the handoff skill'] : null), ours);
}

function top(repo: Repo): string {
  if (!repo.worktree) throw new HandoffError('usage', 'bare-repository', 'agent wiring belongs in a worktree; this repository is bare');
  return repo.worktree;
}

/** git-handoff's hooks in a settings event's groups. */
const oursIn = (groups: unknown): Array<{ command: string; timeout?: unknown }> =>
  Array.isArray(groups) ? groups.flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).filter(holdsGuard) : [];
/** The groups of an event that hold one of git-handoff's hooks. */
const ourGroups = (groups: unknown): any[] => (Array.isArray(groups) ? groups.filter((g) => oursIn([g]).length) : []);
/** Whether a hook group's matcher sends `tool` to its hooks. */
const groupRoutes = (g: any, tool: string) => matcherRoutes(typeof g?.matcher === 'string' ? g.matcher : undefined, tool);

/**
 * The command a client's hook runs, its client stated (`--client=<id>`): the sh front `git-handoff-guard` (it answers
 * what cannot concern handoffs without node), or node's guard where the front serves no such client (`front` false);
 * a launcher path with forward slashes, in double quotes (clients run hooks through a shell), through its sibling front.
 */
export function guardCommand(launcher: string | undefined, client: string, front = true): string {
  const arg = `--client=${client}`;
  if (!launcher || launcher === 'git-handoff') return front ? `git-handoff-guard ${arg}` : `git-handoff guard ${arg}`;
  if (launcher === 'git handoff') return `git handoff guard ${arg}`;
  const unquoted = launcher.replace(/^"(.*)"$/, '$1').replace(/\\/g, '/');
  const quote = (p: string) => `"${p.replace(/(["\\$`])/g, '\\$1')}"`;
  const sibling = unquoted.replace(/git-handoff$/, 'git-handoff-guard');
  if (front && /(^|\/)git-handoff-guard$/.test(unquoted)) return `${quote(unquoted)} ${arg}`;
  if (front && sibling !== unquoted && existsSync(sibling)) return `${quote(sibling)} ${arg}`;
  return `${quote(unquoted.replace(/git-handoff-guard$/, 'git-handoff'))} guard ${arg}`;
}

/** `launcher`: the git-handoff the hooks run (`--launcher`), else the one on PATH. */
export function installAgents(repo: Repo, agents: readonly Agent[], launcher: string | undefined): string[] {
  const root = top(repo);
  const msgs: string[] = [];
  for (const agent of agents) {
    const w = WIRING[agent];
    // the sh front where it serves the client (its record's front facts: src/clients/front.ts), else node's guard straight
    const command = guardCommand(launcher, w.client, RECORDS[w.client].front !== null);
    if (w.format === 'files') msgs.push(...installFiles(w, root, command, repo.commonDir));
    else msgs.push(...installSettings(repo, root, agent, w, command));
    // after each wiring: the startup note in its instructions file, the handoff skill, and the client's trust step
    msgs.push(installSnippet(path.join(root, w.notes), w.notes, repo.commonDir), ...installSkill(root, agent, repo.commonDir));
    const note = trustNote(agent, root);
    const byPlugin = pluginAnswers(w.client, root);
    if (note) msgs.push(`${w.settings}: ${note}`);
    // the same step doctor gives for a gate that would skip these hooks (none where our plugin answers: it runs ungated)
    else if (!byPlugin) msgs.push(...trustGateSteps(agent, root, { env: process.env }).map((t) => `${w.settings}: ${t}`));
    if (byPlugin) msgs.push(`the git-handoff ${pluginNoun(w)} is active for you: these project hooks defer to it, so each event is answered once`);
  }
  return msgs;
}

/** A settings wiring: our hook groups merged into the client's settings file (the person's entries and key order kept). */
function installSettings(repo: Repo, root: string, agent: Agent, w: Wiring, command: string): string[] {
  const file = path.join(root, w.settings);
  const current = readObject(file);
  const settings = merged(current, { at: ['hooks'], entries: settingsHooks(w, command) });
  // Claude Code's sandbox, when the person turns it on, keeps what the guard stands on read-only too (sandboxDenies, below)
  const denied = !!RECORDS[w.client].sandbox && addDenies(settings, sandboxDenies(root, repo.commonDir));
  if (JSON.stringify(settings) === JSON.stringify(current)) return [`${w.settings}: already wired (${agent})`];
  installWrite(repo.commonDir, file, jsonText(settings));
  return [wrapWords(`${w.settings}: wired \`${command}\` for ${Object.keys(w.events).join(', ')}`), ...(denied ? [sandboxNote(w.settings, root, repo.commonDir)] : [])];
}

function installSnippet(file: string, shown: string, commonDir: string): string {
  const text = readTextOr(file) ?? '';
  const next = withBlock(text, SNIPPET, SNIPPET_START, SNIPPET_END);
  if (next === text) return `${shown}: startup note already there`;
  installWrite(commonDir, file, next);
  return `${shown}: ${text.includes(SNIPPET_START) ? 'updated' : 'added'} the startup note`;
}

/** Another client, wired here by git-handoff and not being uninstalled, that reads the same notes file or skill folder. */
function sharedWith(root: string, agent: Agent, leaving: readonly Agent[], key: 'notes' | 'skills'): Agent | undefined {
  return (Object.keys(WIRING) as Agent[]).find((a) => {
    if (a === agent || leaving.includes(a) || !WIRING[agent][key] || WIRING[a][key] !== WIRING[agent][key]) return false;
    return wiredHere(WIRING[a], root);
  });
}

export function uninstallAgents(repo: Repo, agents: readonly Agent[]): string[] {
  const root = top(repo);
  const msgs: Array<string | null> = [];
  const notesDone = new Set<string>();
  for (const agent of agents) {
    const w = WIRING[agent];
    const take = (settings: Record<string, any>) => strip(settings, ['hooks']) + (RECORDS[w.client].sandbox ? removeDenies(settings, sandboxDenies(root, repo.commonDir)) : 0);
    if (w.format === 'files') msgs.push(...uninstallFiles(w, root, repo.commonDir));
    else msgs.push(unwireFile(root, w.settings, repo.commonDir, jsonWithout(path.join(root, w.settings), take)));
    // the skill and the startup note stay while another client wired here still reads them (AGENTS.md, .agents/skills)
    msgs.push(sharedWith(root, agent, agents, 'skills') ? null : removeSkill(root, w.skills, repo.commonDir), removeSkill(root, w.formerSkills, repo.commonDir));
    if (!notesDone.has(w.notes) && !sharedWith(root, agent, agents, 'notes')) {
      notesDone.add(w.notes);
      const without = (t: string): [string, string] | null => {
        const next = withoutBlock(t, SNIPPET_START, SNIPPET_END);
        return next === null ? null : [next, 'removed the startup note'];
      };
      msgs.push(unwireFile(root, w.notes, repo.commonDir, without, (t) => t.includes(SNIPPET_START)));
    }
  }
  return msgs.filter((m): m is string => m !== null);
}

export function doctorAgents(repo: Repo): DoctorItem[] {
  const worktree = repo.worktree;
  if (!worktree) return [];
  const off = !setting(readConfig(repo), 'guard');
  return (Object.entries(WIRING) as Array<[Agent, Wiring]>).flatMap(([agent, w]): DoctorItem[] => {
    const found = w.format === 'files' ? wiredFiles(w, worktree).present.length > 0 : existsSync(path.join(worktree, w.settings));
    if (found) return w.format === 'settings' ? doctorSettings(repo, worktree, agent, w, off) : doctorFiles(worktree, agent, w, off);
    // a client nobody wired here is not something missing, only not in use
    const byPlugin = pluginAnswers(w.client, worktree);
    const use = byPlugin ? `not needed: the git-handoff ${pluginNoun(w)} answers here (below)` : `to use it: git handoff install --agent ${agent}`;
    return [{ component: `agent ${agent}`, status: 'info', detail: `not wired (${w.settings} not present); ${use}` }, ...ridersOf(w).map((r) => doctorRider(worktree, agent, w, r, null, off))];
  });
}

/** A found wiring's row: every event (file) of it there, then a probe through the command the client runs refused, unless the guard is off. */
function wiringItem(agent: Agent, shown: string, wired: string[], missing: string[], off: boolean, probe: () => { ok: boolean; detail: string }): DoctorItem {
  const component = `agent ${agent}`;
  if (missing.length) return { component, status: 'broken', detail: `${shown} lacks ${missing.join(', ')} (run install --agent ${agent} again)` };
  if (off) return { component, status: 'info', detail: `${shown}: ${wired.join(', ')}; ${GUARD_OFF}` };
  const p = probe();
  return { component, status: p.ok ? 'ok' : 'broken', detail: `${shown}: ${wired.join(', ')}; ${p.detail}` };
}

/** A settings wiring: our hook groups for every event, as this build wires them, a probe refused, the sandbox and the trust gate. */
function doctorSettings(repo: Repo, worktree: string, agent: Agent, w: Wiring, off: boolean): DoctorItem[] {
  let settings: Record<string, any>;
  try {
    settings = readObject(path.join(worktree, w.settings)) ?? {};
  } catch (e) {
    return [{ component: `agent ${agent}`, status: 'broken', detail: (e as Error).message }];
  }
  const items: DoctorItem[] = [];
  const wired = Object.keys(w.events).filter((ev) => oursIn(settings.hooks?.[ev]).length);
  const missing = Object.keys(w.events).filter((ev) => !wired.includes(ev));
  const afterHooks = w.after ? oursIn(settings.hooks?.[w.after]) : [];
  // an after-tool hook still wired for a tool whose warnings now ride in its own output (contextInShellOutput)
  const needless = w.after ? afterNeedless(w, settings.hooks?.[w.after]) : [];
  // the sh front run straight (a bash client's, or Claude Code's before its sh handed over to bash): it starts `cat`
  // for each payload bash could have read
  const catRead = wired.filter((ev) => ev !== w.after && oursIn(settings.hooks[ev]).some((h) => hookCommand(w, h.command) !== h.command));
  // a split event (Wiring.split) wired as one group: its short payloads (Bash's, Edit's) are read with `cat` too
  const unsplit = w.split && wired.includes(w.split.event) && oursIn(settings.hooks[w.split.event]).some((h) => h.command.includes(`set -- ${SOURCED_FLAG} `));
  // an older install's wiring still works, at a cost per tool call: say how to drop it
  const older = [
    ...Object.keys(settings.hooks ?? {}).filter((ev) => !(ev in w.events) && oursIn(settings.hooks[ev]).length),
    ...(afterHooks.length && !afterHooks.some((h) => h.command.trim().endsWith(AFTER_FLAG)) ? [`${w.after} without ${AFTER_FLAG}`] : []),
    ...(needless.length ? [`${w.after} for ${needless.join(', ')}`] : []),
    ...(catRead.length ? [`${catRead.join(', ')} without ${PAYLOAD_FLAG}`] : []),
    ...(unsplit ? [`${w.split!.event} in one group, ${w.split!.line.join(', ')} without ${SPLIT_FLAGS.line}`] : []),
  ];
  if (wired.length && older.length) {
    const cost = 'an extra hook process, an after-tool hook that reads every payload, or a `cat` for each payload';
    const detail = `${w.settings} is wired as an older git-handoff wired it (${older.join(', ')}): it works, but each tool call pays more than it needs to (${cost}); run \`git handoff install --agent ${agent}\` again`;
    items.push({ component: `agent ${agent} wiring`, status: 'info', detail });
  }
  items.push(...routingItems(agent, w, settings.hooks));
  // every hook of ours with the timeout install sets (above the guard's own watchdog, under the clients' defaults)
  // (an event the client bounds below it, Wiring.eventTimeouts, has the client's bound)
  items.push(...timeoutItems(agent, w, Object.entries(settings.hooks ?? {}).flatMap(([ev, gs]) => (w.eventTimeouts?.[ev] !== undefined ? [] : oursIn(gs).map((h) => h.timeout)))));
  // the project's own settings without our hooks, where the user-wide plugin (extension) answers: nothing is missing,
  // and wiring the project too would only add hooks that defer to it
  const byPlugin = pluginAnswers(w.client, worktree);
  const component = `agent ${agent}`;
  if (!wired.length && byPlugin) items.push({ component, status: 'info', detail: `${w.settings} has no git-handoff hook; not needed: the git-handoff ${pluginNoun(w)} answers here (below)` });
  else if (!wired.length) items.push({ component, status: 'missing', detail: `${w.settings} has no git-handoff hook (git handoff install --agent ${agent})` });
  else if (byPlugin && !missing.length) {
    items.push({ component, status: 'ok', detail: `${w.settings}: ${wired.join(', ')}; these hooks defer to the git-handoff ${pluginNoun(w)}, which answers each event (never twice)` });
  } else items.push(wiringItem(agent, w.settings, wired, missing, off, () => probeWiring(worktree, agent, settings.hooks[Object.keys(w.events)[0]])));
  items.push(...ridersOf(w).map((r) => doctorRider(worktree, agent, w, r, wired.includes('PreToolUse') ? settings.hooks.PreToolUse : null, off)));
  if (!wired.length) return items;
  if (RECORDS[w.client].sandbox) items.push(sandboxItem(worktree, repo.commonDir));
  return [...items, ...trustGateItems(agent, worktree, { env: process.env, hooks: settings.hooks, isOurs: holdsGuard, pluginAnswers: byPlugin })];
}

/** The clients with no wiring of their own that run `w` (its file among theirs): VS Code's agent runs Claude Code's. */
const ridersOf = (w: Wiring) => ALL_RECORDS.filter((r) => r.agent === null && r.readsClaude && r.hookFiles.some((f) => f.scope === 'project' && f.file === w.settings));

/**
 * VS Code's agent (Copilot Chat hooks, VS Code 1.110 on) reads the Claude Code wiring by default (chat.hookFilesLocations
 * names .claude/settings.json) and runs its PreToolUse hook for every tool (matchers ignored), in its own payload
 * shape: covered when that hook refuses a probe in each of its shapes (snake_case with run_in_terminal, 1.111 on;
 * camelCase with runInTerminal, 1.110). No plugin stands in for it: VS Code runs the project's hooks.
 */
function doctorRider(worktree: string, agent: Agent, w: Wiring, rider: ClientRecord, preToolUse: any[] | null, off: boolean): DoctorItem {
  const component = `agent ${rider.name}`;
  const reads = `VS Code's agent runs the Claude Code wiring (${w.settings}, read by default through chat.hookFilesLocations, every tool: matchers ignored)`;
  if (!preToolUse) return { component, status: 'info', detail: `${reads}: not wired here; git handoff install --agent ${agent} covers VS Code's agent too` };
  if (off) return { component, status: 'info', detail: `${reads}; ${GUARD_OFF}` };
  // VS Code runs every group (a split event's two: hookGroups), and any refusal refuses
  const commands = [...new Set(oursIn(preToolUse).map((h) => h.command))];
  const shapes = rider.probes(worktree, PROBE_COMMAND);
  for (const [shape, payload] of shapes) {
    const probes = commands.map((command) => probeCommand(worktree, agent, command, payload));
    if (!probes.some((p) => p.ok)) return { component, status: 'broken', detail: `${reads}, but a probe in its shape (${shape}) was not refused: ${probes.map((p) => p.detail).join('; ')}` };
  }
  // it runs the hooks files in its folders too (Copilot's): those stand aside for its calls (one answer a call)
  const folders = (rider.hookDirs ?? []).filter((d) => d.scope === 'project').map((d) => d.file);
  const also = Object.values(WIRING).filter((o) => folders.includes(path.dirname(o.settings)) && wiredWithGuard(path.join(worktree, o.settings)));
  const others = also.map((o) => `; it runs ${o.settings} too, which stands aside for its calls, so this wiring answers each call once`).join('');
  return { component, status: 'ok', detail: `covered: ${reads}; a probe in each of its shapes (${shapes.map(([s]) => s).join('; ')}) through ${commands.map((c) => `\`${c}\``).join(' and ')} was refused as it should be${others}` };
}

/** A wiring of files: every file there with every event, a probe refused, the timeouts its entries set, its trust gate. */
function doctorFiles(worktree: string, agent: Agent, w: Wiring, off: boolean): DoctorItem[] {
  const { present, missing, command, timeouts } = wiredFiles(w, worktree);
  const probe = () => {
    const p = probeCommand(worktree, agent, w.runs?.(command!, worktree) ?? command!);
    return { ...p, detail: p.detail + readerNote(worktree, w) };
  };
  const item = wiringItem(agent, w.settings, present, command ? missing : [...missing, 'a guard command'], off, probe);
  return [item, ...timeoutItems(agent, w, timeouts), ...trustGateItems(agent, worktree, { env: process.env })];
}

/** For a client that runs Claude Code's wiring too (its record's readsClaude), which wiring answers its calls here. */
function readerNote(worktree: string, w: Wiring): string {
  const when = RECORDS[w.client].readsClaude;
  if (!when || !wiredWithGuard(path.join(worktree, WIRING.claude.settings))) return '';
  return `. It runs ${WIRING.claude.settings}'s hooks too (${when}): those stand aside for its calls, so this wiring answers each call once`;
}

/** The clients wired in this worktree, by their `install --agent` names: their wiring here, or their plugin answering here. */
export function wiredAgents(worktree: string): Agent[] {
  return (Object.entries(WIRING) as Array<[Agent, Wiring]>).filter(([, w]) => wiredHere(w, worktree) || pluginAnswers(w.client, worktree)).map(([a]) => a);
}

/** Whether git-handoff's wiring of `w` is in this worktree. */
export const wiredHere = (w: Wiring, root: string) => (w.format === 'files' ? wiredFiles(w, root).present.length > 0 : wiredWithGuard(path.join(root, w.settings)));

/** Tools every wiring must send to the guard: an MCP server's writer in the client's naming, and a tool no list names. */
const mustRoute = (client: ClientName): string[] => [RECORDS[client].mcpNames.replace('<server>', 'fs').replace('<tool>', 'move_file'), 'SomeNewTool'];

/** The tools our after-tool hook groups `groups` route that the wiring's own after-tool matcher leaves out (of the client's known tools). */
function afterNeedless(w: Wiring, groups: unknown): string[] {
  const expected = w.events[w.after!];
  if (expected === undefined) return [];
  const ours = ourGroups(groups);
  const tools = Object.keys(RECORDS[w.client].front?.tools ?? {});
  return tools.filter((t) => !matcherRoutes(expected, t) && ours.some((g) => groupRoutes(g, t)));
}

/**
 * The doctor row for a wiring whose before-tool hooks do not see every call (an older install's matcher naming some
 * tools: every other one, an MCP server's move_file among them, runs unchecked), or none.
 */
function routingItems(agent: Agent, w: Wiring, hooks: Record<string, any> | undefined): DoctorItem[] {
  const event = Object.keys(w.events).find((ev) => w.events[ev] !== undefined && ev !== w.after);
  const ours = ourGroups(hooks?.[event ?? '']);
  if (!event || !ours.length) return [];
  const missed = mustRoute(w.client).filter((tool) => !ours.some((g) => groupRoutes(g, tool)));
  if (!missed.length) return [];
  return [{ component: `agent ${agent} routing`, status: 'broken', detail: `${w.settings}: the ${event} hook names some tools only (${ours.map((g) => `\`${String(g.matcher ?? '')}\``).join(', ')}), so ${missed.map((t) => `\`${t}\``).join(' and ')} and every other tool it does not name run with no guard; run \`git handoff install --agent ${agent}\` again (it routes every tool but the read-only ones)` }];
}

/** The doctor row for the first of our hooks whose timeout is not what install sets (values in the client's unit). */
function timeoutItems(agent: Agent, w: Wiring, values: unknown[]): DoctorItem[] {
  const p = values.map((t) => hookTimeoutProblem(w, t)).find(Boolean);
  return p ? [{ component: `agent ${agent} timeout`, status: p.status, detail: `${w.settings}: ${p.detail} (git handoff install --agent ${agent})` }] : [];
}

/** A synthetic refusal-worthy payload in the client's shape (its record's first probe). */
const probePayload = (agent: Agent, cwd: string): Record<string, unknown> => RECORDS[AGENT_CLIENT[agent]].probes(cwd, PROBE_COMMAND)[0][1];

/** Runs the exact command the client's before-tool hook runs, with a payload it must refuse, and reads the answer. */
function probeWiring(cwd: string, agent: Agent, groups: any[]): { ok: boolean; detail: string } {
  // the group the client runs for the probe's tool (a split event has two: hookGroups), else our first
  const p = probePayload(agent, cwd);
  const tool = String(p.tool_name ?? p.toolName ?? '');
  const hook = oursIn(groups.filter((g) => groupRoutes(g, tool)))[0] ?? oursIn(groups)[0];
  return probeCommand(cwd, agent, hook.command);
}

/** Runs a hook command with a payload it must refuse, as the client would, and reads the answer. */
export function probeCommand(cwd: string, agent: Agent, command: string, payload: Record<string, unknown> = probePayload(agent, cwd)): { ok: boolean; detail: string } {
  // The probe is nobody's session: no client process or session of the shell doctor runs in may leak into it
  // (a CLAUDE_PID would make the probe look like a successor of the session that ran doctor).
  const env = { ...process.env };
  for (const k of ['CLAUDE_PID', 'GIT_HANDOFF_SESSION', 'GIT_HANDOFF_BYPASS', 'COPILOT_CLI', ...SESSION_VARS.map(([v]) => v)]) delete env[k];
  const r = spawnSync('sh', ['-c', command], { cwd, env, input: JSON.stringify(payload), encoding: 'utf8', timeout: 20_000 });
  // exit 2 with the reason on stderr is the refusal of the clients that read no JSON (Windsurf, Kiro, Augment, Devin CLI, Crush)
  const byStatus = r.status === 2 && String(r.stderr ?? '').trim() !== '';
  if (r.error || (r.status !== 0 && !byStatus)) return { ok: false, detail: `\`${command}\` did not run (${r.error?.message ?? `exit ${r.status}`}: ${String(r.stderr ?? '').trim().slice(0, 200)})` };
  let answer: any = null;
  try {
    answer = byStatus ? { exit: String(r.stderr).trim() } : JSON.parse(r.stdout);
  } catch {
    return { ok: false, detail: `\`${command}\` answered no decision to a probe it must refuse` };
  }
  // each client's own deny shape (Claude Code's, Gemini CLI's, Copilot CLI's flat one, the OpenCode plugin's, Cursor's, Cline's, exit 2)
  const denied =
    answer?.hookSpecificOutput?.permissionDecision === 'deny' || answer?.decision === 'deny' || answer?.permissionDecision === 'deny' || typeof answer?.deny === 'string' || answer?.permission === 'deny' || answer?.cancel === true || byStatus;
  const reason = wordCut(String(answer?.hookSpecificOutput?.permissionDecisionReason ?? answer?.reason ?? answer?.permissionDecisionReason ?? answer?.deny ?? answer?.agent_message ?? answer?.errorMessage ?? answer?.exit ?? '').split('\n')[0], 100);
  return denied
    ? { ok: true, detail: `a probe through \`${command}\` was refused as it should be: "${reason}"` }
    : { ok: false, detail: `\`${command}\` gave an unexpected answer to the probe: ${r.stdout.slice(0, 200)}` };
}

// git-handoff's block between two marker lines in a person's file (the startup note, the exclude lines): the rest of
// the file is the person's, kept as it is.
/** The block's offsets in `text`, from its start marker to the end of its end marker, or null where it has none. */
function blockAt(text: string, start: string, end: string): [number, number] | null {
  const s = text.indexOf(start);
  const e = text.indexOf(end);
  return s >= 0 && e > s ? [s, e + end.length] : null;
}

/** The lines between the markers (none where there is no block). */
const blockLines = (text: string, start: string, end: string): string[] => {
  const at = blockAt(text, start, end);
  return at ? text.slice(at[0] + start.length, at[1] - end.length).split('\n').filter(Boolean) : [];
};

/** `text` with `block` in place of its marked one, else at its end after a blank line. */
function withBlock(text: string, block: string, start: string, end: string): string {
  const at = blockAt(text, start, end);
  if (at) return text.slice(0, at[0]) + block + text.slice(at[1]);
  return text === '' ? `${block}\n` : `${text.replace(/\n*$/, '\n\n')}${block}\n`;
}

/** `text` without its marked block and the blank lines around it, or null where it has none. */
function withoutBlock(text: string, start: string, end: string): string | null {
  const at = blockAt(text, start, end);
  if (!at) return null;
  const before = text.slice(0, at[0]).replace(/\n+$/, '');
  const after = text.slice(at[1]).replace(/^\n+/, '');
  const next = before && after ? `${before}\n\n${after}` : before || after;
  return next === '' || next.endsWith('\n') ? next : `${next}\n`;
}

// `install --agent … --private`: the wiring install wrote kept out of the repository's history and `git status`
// by lines in <git-common-dir>/info/exclude (never .gitignore, which is shared); uninstall takes them out again.
const START = '# git-handoff install --private (git handoff uninstall removes these lines)';
const END = '# end of git-handoff install --private';

const excludeFile = (repo: Repo) => path.join(repo.commonDir, 'info', 'exclude');

/** The paths install --agent writes for these clients in `worktree`, as exclude patterns anchored at the top. */
function wiringPaths(agents: readonly Agent[], worktree: string): string[] {
  const out = new Set<string>();
  for (const a of agents) {
    const w = WIRING[a];
    out.add(`/${w.settings}`);
    for (const f of w.files?.('', worktree) ?? []) out.add(`/${f.file}`);
    out.add(`/${w.notes}`);
    if (w.skills) out.add(`/${w.skills}/handoff/`);
  }
  return [...out];
}

/** Adds (or updates) the exclude lines for what install wrote; says which, and which are tracked (exclude cannot hide those). */
export function excludeWiring(repo: Repo, agents: readonly Agent[]): string[] {
  const top = repo.worktree!;
  const paths = wiringPaths(agents, top).filter((p) => existsSync(path.join(top, p)));
  const tracked = new Set(repo.trackedPaths(paths.map((p) => `:(top)${p.slice(1)}`)).map((f) => `/${f}`));
  const hidden = paths.filter((p) => ![...tracked].some((t) => t === p || t.startsWith(p)));
  const file = excludeFile(repo);
  const text = readTextOr(file) ?? '';
  const lines = [...new Set([...blockLines(text, START, END), ...hidden])];
  const msgs: string[] = [];
  if (lines.length) {
    // the bytes before the first install are kept, so uninstall gives them back exactly
    installWrite(repo.commonDir, file, withBlock(text, [START, ...lines, END].join('\n'), START, END));
    msgs.push(`.git/info/exclude: ${hidden.map((p) => p.slice(1)).join(', ')} kept out of git status and history (this clone only)`);
  }
  for (const t of tracked) msgs.push(`${t.slice(1)} is tracked: .git/info/exclude cannot hide it, so its change shows in git status (commit it, or restore it with git checkout -- ${t.slice(1)})`);
  return msgs;
}

/** Takes install --private's lines out of info/exclude, leaving the rest of the file as it was. */
export function unexcludeWiring(repo: Repo): string[] {
  const file = excludeFile(repo);
  const text = readTextOr(file);
  const next = text === null ? null : withoutBlock(text, START, END);
  if (next === null) return [];
  if (!restoreOriginal(repo.commonDir, file, (t) => !t.includes(START))) writeFileSync(file, next);
  return ['.git/info/exclude: removed the lines install --private added'];
}

// Where a client has an OS sandbox, the kernel holds the perimeter too. Claude Code's sandbox, once on,
// keeps .claude/, .git/hooks, .git/config and everything outside the project read-only for the Bash tool, but not
// the other clients' wiring in the worktree, git-handoff's state under the git directory or the handoff files:
// its `install --agent` adds those to its `sandbox.filesystem.denyWrite` (what git-handoff itself never writes
// from inside it: `git handoff write` and a commit through the hooks still work, test/clients/sandbox.clients.test.ts),
// `uninstall` takes them out again, and doctor says whether the sandbox is on, what it holds, and recommends it.
// Codex's sandbox is set in the user's configuration only (a project's cannot change permissions): nothing to add.
/** The client with an OS sandbox a project's settings turn on (ClientRecord.sandbox), and its settings' keys. */
const SANDBOXED = ALL_RECORDS.find((r) => r.sandbox)!;
const SANDBOX = SANDBOXED.sandbox!;

/**
 * What the sandbox should keep read-only, relative to the worktree: every client's project hook files and folders
 * (from the records), git-handoff's state under the git directory (when the worktree holds it), and the folders of
 * the protected handoff files (their pattern's fixed part: `memory`; globs are not honoured on Linux).
 */
const sandboxDenies = (worktree: string, commonDir: string): string[] => Object.values(denyParts(worktree, commonDir)).flat();

/** sandboxDenies in two, none in both: the clients' wiring, and git-handoff's own state and handoff folders. */
function denyParts(worktree: string, commonDir: string): { wiring: string[]; own: string[] } {
  const wiring = ALL_RECORDS.flatMap((r) => [...r.hookFiles, ...(r.hookDirs ?? []), ...(r.pluginDirs ?? [])].filter((f) => f.scope === 'project' || f.scope === 'local').map((f) => f.file));
  const state = path.relative(worktree, handoffDir(commonDir));
  const handoffs = DEFAULT_PROTECT.map((p) => p.replace(/^(\*\*\/)+/, '').split('/').slice(0, -1).join('/')).filter((d) => d && !/[*?[{]/.test(d));
  return { wiring: [...new Set(wiring)], own: [...new Set([...(state.startsWith('..') || path.isAbsolute(state) ? [] : [state]), ...handoffs])].filter((d) => !wiring.includes(d)) };
}

/**
 * What install says of the denyWrite entries it added to `settings`: git-handoff's own by name, the clients' wiring by
 * count (most are for clients this user does not have; the settings file lists them), in lines a terminal keeps whole.
 */
function sandboxNote(settings: string, worktree: string, commonDir: string): string {
  const { wiring, own } = denyParts(worktree, commonDir);
  return [
    `${settings}: its sandbox (when on) keeps ${own.join(', ').replace(/, ([^,]*)$/, ' and $1')} read-only too,`,
    `  and the ${wiring.length} paths of every client's wiring (listed in its sandbox.filesystem.denyWrite);`,
    '  git handoff doctor says whether the sandbox is on',
  ].join('\n');
}

type Json = Record<string, any>;

/** Adds `entries` to Claude Code's settings' denyWrite (kept in order, none twice); whether anything was added. */
function addDenies(settings: Json, entries: string[]): boolean {
  const list = valueAt(settings, SANDBOX.denyWrite);
  const had: unknown[] = Array.isArray(list) ? list : [];
  const missing = entries.filter((e) => !had.includes(e));
  if (missing.length) eventsAt(settings, SANDBOX.denyWrite.slice(0, -1), true)![SANDBOX.denyWrite[2]] = [...had, ...missing];
  return missing.length > 0;
}

/** Takes `entries` out of denyWrite, and the objects that leaves empty; how many were taken. */
function removeDenies(settings: Json, entries: string[]): number {
  const parent = eventsAt(settings, SANDBOX.denyWrite.slice(0, -1), false);
  const key = SANDBOX.denyWrite[2];
  if (!Array.isArray(parent?.[key])) return 0;
  const kept = parent[key].filter((e: unknown) => !entries.includes(e as string));
  const n = parent[key].length - kept.length;
  if (kept.length) parent[key] = kept;
  else delete parent[key];
  dropEmpty(settings, SANDBOX.denyWrite.slice(0, -1));
  return n;
}

const onPath = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;

/** doctor's row: Claude Code's sandbox on or off here (its settings, the last layer that says wins), what it holds. */
function sandboxItem(worktree: string, commonDir: string): DoctorItem {
  const r = SANDBOXED;
  // user, project, local, then managed settings: a later layer's value wins
  const order = ['user', 'project', 'local', 'system'] as const;
  const files = order.flatMap((scope) => r.hookFiles.filter((f) => f.scope === scope).map((f) => placed(r.name, f.file, scope, worktree, process.env)));
  const layers = files.map((f): Json | null => (f ? readJsonOr(f) : null)).filter((j): j is Json => j !== null);
  const enabled = layers.reduce<boolean>((on, j) => (typeof valueAt(j, SANDBOX.enabled) === 'boolean' ? valueAt(j, SANDBOX.enabled) : on), false);
  const denied = new Set(layers.flatMap((j) => (Array.isArray(valueAt(j, SANDBOX.denyWrite)) ? valueAt(j, SANDBOX.denyWrite) : [])));
  const wanted = sandboxDenies(worktree, commonDir);
  const missing = wanted.filter((e) => !denied.has(e));
  const component = `agent ${r.agent} sandbox`;
  const tools = ['bwrap', 'socat'].filter((p) => !onPath(p));
  const needs = tools.length ? ` (on Linux it needs ${tools.join(' and ')}: apt-get install bubblewrap socat)` : '';
  if (!enabled) {
    return {
      component,
      status: 'info',
      detail: `Claude Code's sandbox is off: a script the session writes and runs can write anything the user can. Recommended: "sandbox": {"enabled": true} in ${r.hookFiles.find((f) => f.scope === 'local')!.file} or your user settings${needs}; it keeps .claude/, .git/hooks, .git/config and all outside the project read-only, and with git-handoff's denyWrite entries ${missing.length ? `(git handoff install --agent ${r.agent} adds them) ` : ''}the other clients' wiring, git-handoff's state and the handoff files too`,
    };
  }
  if (missing.length) return { component, status: 'info', detail: `Claude Code's sandbox is on, but its denyWrite lacks ${missing.join(', ')}: a script run in it can still write those; run git handoff install --agent ${r.agent} again${needs}` };
  return { component, status: 'ok', detail: `Claude Code's sandbox is on: the Bash tool cannot write .claude/, .git/hooks, .git/config, anything outside the project, nor ${wanted.join(', ')}${needs}` };
}
