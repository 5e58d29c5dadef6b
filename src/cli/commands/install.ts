// `git handoff install | uninstall | doctor`: wiring that is idempotent and reversible.
import type { Argv } from 'yargs';
import { AGENT_CLIENT, AGENTS, agentName, type Agent } from '../../clients/names';
import { HandoffError } from '../../errors';
import { openRepo, type Repo } from '../../git/repo';
import { USER_PLUGIN } from '../../clients/own-files';
import { MCP_CLIENTS, mcpClientOf, mcpWired, type McpClientRecord } from '../../clients/mcp-clients';
import { PROTECTION_HEADER, protectionRows, type ProtectionRow, type SharedProtections } from '../../clients/protections';
import { setting } from '../../config-keys';
import { readConfig } from '../../git/config';
import { loadMcpBundle } from './mcp';
import { doctorAgents, excludeWiring, guardCommand, installAgents, unexcludeWiring, uninstallAgents, wiredAgents } from '../../install/agents';
import { doctorPlugins, installPlugin, uninstallPlugin, versionIn } from '../../install/plugin';
import { pluginAnswers } from '../../clients/plugin-active';
import { removeLocalState } from '../../install/local-state';
import { existsSync, fstatSync } from 'node:fs';
import { realpathOr, statOr } from '../../read-file';
import path from 'node:path';
import { ownPackage, runnable } from '../../guard/path-programs';
import { doctorHooks, installHooksFor, uninstallHooks, uninstallHooksFor } from '../../hooks/install';
import { doctorSecrets } from '../../handoff/secrets/redact';
import { doctorFormat } from '../../handoff/store/format';
import { doctorSync, installRemote, installServer, uninstallRemote, uninstallServer } from '../../sync/install';
import type { DoctorItem } from '../../wiring';
import { command, type GlobalArgs } from '../context';
import { answer, table } from '../output';
import { personOnly } from '../person-only';
import { ALL_RECORDS, PLUGIN_AGENTS, pluginOf, WIRING } from '../../clients/records';
import { wrapWords } from '../../terminal-text';

function agentsOf(names: string[]): Agent[] | undefined {
  if (!names.length) return undefined;
  const out = new Set<Agent>();
  for (const a of names) {
    const agent = agentName(a);
    if (a === 'all') AGENTS.forEach((x) => out.add(x));
    else if (agent) out.add(agent);
    else throw new HandoffError('usage', 'unknown-agent', `unknown agent client "${a}": use ${AGENTS.join(', ')} or all (or a client's full name: ${AGENTS.map((x) => AGENT_CLIENT[x]).join(', ')}), or an MCP client: ${MCP_CLIENTS.map((c) => c.agent).join(', ')}`);
  }
  return [...out];
}

const HOOKS_PER_REPOSITORY =
  'the git hooks are per repository: in each repository, `git handoff install --hooks` adds them (their reference-transaction check ' +
  "refuses a raw move or deletion of a handoff ref whichever client runs, trusted or not, where the plugin's hooks may be skipped)";
const NO_HOOKS =
  'git hooks not installed (--no-hooks): a client that skips the project hooks (untrusted) leaves nothing to refuse raw handoff ref moves; the loss record still reports and `git handoff recover` restores them';

/** Files a client keeps to one clone by their name (a record's `local` scope), with the agent that wires them. */
const PERSONAL = new Map(ALL_RECORDS.flatMap((r) => (r.agent === null ? [] : r.hookFiles).filter((f) => f.scope === 'local').map((f) => [f.file, r.agent] as const)));

/** Whether to commit what install --agent wrote: said once, after the files it names; a personal file is not to commit. */
function commitAdvice(msgs: string[]): string[] {
  const files = [...new Set(msgs.map((m) => m.split(':')[0]).filter((f) => /^\.|\.md$/.test(f)))];
  const shared = files.filter((f) => !PERSONAL.has(f));
  const advice = files.filter((f) => PERSONAL.has(f)).map((f) => `${f} is personal (this clone's, by its name): do not commit it; each person wires their own clone with \`git handoff install --agent ${PERSONAL.get(f)}\``);
  if (shared.length) {
    advice.unshift(
      `commit ${shared.join(', ')} to wire everyone who clones this repository (each of them then needs git-handoff on PATH), ` +
        'or keep them to yourself (install --agent … --private puts them in .git/info/exclude); either way handoffs do not count them as uncommitted work while they are as install wrote them',
    );
  }
  return advice.map((line) => wrapWords(line));
}

const options = (y: Argv<GlobalArgs>) =>
  y
    .option('hooks', { type: 'boolean', describe: 'the git hooks (prepare-commit-msg, commit-msg, pre-commit, pre-push, reference-transaction); --agent brings them too unless --no-hooks' })
    .option('agent', {
      type: 'string',
      array: true,
      describe: `agent client wiring: ${AGENTS.join(', ')} or all (a client's full name or an alias accepted: ${AGENTS.filter((x) => AGENT_CLIENT[x] !== x).map((x) => AGENT_CLIENT[x]).join(', ')}, …; docs/clients.md); or an MCP client, which starts \`git handoff mcp\`: ${MCP_CLIENTS.map((c) => c.agent).join(', ')}`,
    })
    .option('remote', { type: 'string', describe: 'fetch refspecs that carry handoffs from remote R' })
    .option('server', { type: 'boolean', describe: 'in a bare repository: hold pushes to the ownership invariant' })
    .option('plugin', { type: 'boolean', describe: `with --agent ${[...PLUGIN_AGENTS, USER_PLUGIN.agent].join(', ')}: install the git-handoff plugin (extension) for your user, instead of wiring this repository` })
    .option('extension', { type: 'boolean', describe: `with --agent ${PLUGIN_AGENTS.filter((x) => pluginOf(x).word === 'extension').join(', ')}: the same as --plugin` })
    .option('private', { type: 'boolean', describe: "with --agent: keep the wiring out of the repository's history and git status (lines in .git/info/exclude, this clone only)" })
    .option('launcher', { type: 'string', describe: 'agent hooks run this git-handoff executable (quoted, forward slashes; `git handoff` through git) instead of `git-handoff` on PATH' });

type Args = ReturnType<typeof options> extends Argv<infer T> ? T : never;

/** The repository here, if any: a plugin is installed for the user, from anywhere. */
function repoIfAny(): Repo | null {
  try {
    return openRepo();
  } catch {
    return null;
  }
}

async function run(a: Args, mode: 'install' | 'uninstall'): Promise<void> {
  personOnly(mode, []);
  const names = (a.agent ?? []).flatMap((x) => String(x).split(',')).filter(Boolean);
  const mcp = names.map(mcpClientOf).filter((c): c is McpClientRecord => c !== null);
  const agents = agentsOf(names.filter((n) => !mcpClientOf(n)));
  const explicit = !!(a.hooks || agents || a.remote !== undefined || a.server);
  // a plain uninstall (everything) takes the server out of every MCP client's configuration too, before the install records go
  const everything = mode === 'uninstall' && !explicit && !mcp.length && !a.plugin && !a.extension;
  const msgs = mcp.length || (everything && !openRepo().bare) ? mcpActions(a, everything ? [...MCP_CLIENTS] : mcp, mode, everything) : [];
  // MCP clients alone: nothing else is installed or taken out (no hooks, no other agent)
  report(a, mcp.length && !explicit ? msgs : [...msgs, ...(await actions(a, agents, mode, explicit))]);
}

/** The MCP server added to (taken out of) each named MCP client's configuration; `quiet`: no line for a client without it. */
function mcpActions(a: Args, clients: McpClientRecord[], mode: 'install' | 'uninstall', quiet = false): string[] {
  const repo = openRepo();
  if (!repo.worktree) throw new HandoffError('usage', 'bare-repository', 'an MCP client serves a worktree; this repository is bare');
  const top = repo.worktree;
  const { installMcpClient, uninstallMcpClient } = loadMcpBundle();
  if (mode === 'install') return clients.map((c) => installMcpClient(c, top, repo.commonDir, a.launcher ?? 'git-handoff'));
  return clients.flatMap((c) => uninstallMcpClient(c, top, repo.commonDir) ?? (quiet ? [] : [`${c.file(top)}: no MCP server of git-handoff in it`]));
}

/** What install or uninstall did, one message each. */
async function actions(a: Args, agents: Agent[] | undefined, mode: 'install' | 'uninstall', explicit: boolean): Promise<string[]> {
  const msgs: string[] = [];
  if (a.plugin || a.extension) {
    if (!agents?.length) throw new HandoffError('usage', 'plugin-needs-agent', `name the client: ${PLUGIN_AGENTS.map((x) => `--agent ${x} --${pluginOf(x).word}`).join(', or ')}`);
    const none = agents.filter((x) => !PLUGIN_AGENTS.includes(x) && x !== USER_PLUGIN.agent);
    const skills = none.length ? WIRING[none[0]].skills : undefined;
    if (none.length) throw new HandoffError('usage', 'no-plugin', `${none.join(', ')}: no git-handoff plugin; \`git handoff install --agent ${none[0]}\` wires this repository${skills ? ` and puts the handoff skill where it reads it (${skills})` : ''}`);
    for (const x of agents.filter((y) => PLUGIN_AGENTS.includes(y))) msgs.push(...(mode === 'install' ? installPlugin(repoIfAny(), x) : uninstallPlugin(x)));
    if (agents.includes(USER_PLUGIN.agent)) msgs.push(...(mode === 'install' ? USER_PLUGIN.install(guardCommand(a.launcher, AGENT_CLIENT[USER_PLUGIN.agent])) : USER_PLUGIN.uninstall()));
    if (mode === 'install') msgs.push(HOOKS_PER_REPOSITORY);
    return msgs;
  }
  const repo = openRepo();
  if (mode === 'install') {
    // a wiring that names the programs on PATH: two installations there can make it run the other one, or exit 127
    if (agents?.length && (!a.launcher || a.launcher === 'git-handoff')) msgs.push(...checkPathInstallations(agents.some((x) => WIRING[x].sh)));
    if (a.server) msgs.push(...(await installServer(repo)));
    if (a.private && !agents) throw new HandoffError('usage', 'private-needs-agent', `--private keeps agent wiring out of history: name the clients, e.g. install --agent ${AGENTS[0]} --private`);
    // the agent wiring brings the git hooks: their reference-transaction check refuses raw ref moves whichever client
    // runs, trusted or not (--no-hooks: without them)
    if (a.hooks || (a.hooks !== false && !repo.bare && (!explicit || agents))) msgs.push(...installHooksFor(repo, a.hooks || !agents ? null : agents));
    else if (agents && a.hooks === false) msgs.push(NO_HOOKS);
    if (agents) {
      const wired = installAgents(repo, agents, a.launcher);
      msgs.push(...wired, ...(a.private ? excludeWiring(repo, agents) : commitAdvice(wired)));
    }
    if (a.remote !== undefined) msgs.push(...(await installRemote(repo, a.remote)));
  } else {
    const all = !explicit;
    if (a.server || (all && repo.bare)) msgs.push(...(await uninstallServer(repo)));
    if (a.hooks || all) msgs.push(...uninstallHooks(repo));
    if (agents || (all && !repo.bare)) msgs.push(...uninstallAgents(repo, agents ?? AGENTS));
    // the hooks install --agent brought go with the last such agent (hooks installed on their own stay, said so)
    if (agents && !a.hooks && a.hooks !== false) msgs.push(...uninstallHooksFor(repo, agents));
    if ((agents || all) && !repo.bare) msgs.push(...unexcludeWiring(repo));
    if (a.remote !== undefined || all) msgs.push(...(await uninstallRemote(repo, a.remote || undefined)));
    // everything here unwired: the state the guard and the sessions kept goes (the handoffs stay, said so)
    if (all && !repo.bare) msgs.push(...removeLocalState(repo, stillGuarded(repo)));
  }
  return msgs;
}

/** The user-wide plugin that still runs the guard in this repository after its wiring is gone, if any. */
function stillGuarded(repo: Repo): string | null {
  const cwd = repo.worktree ?? process.cwd();
  const plugin = PLUGIN_AGENTS.find((x) => pluginAnswers(AGENT_CLIENT[x], cwd));
  if (plugin) return `the git-handoff ${pluginOf(plugin).word} of ${pluginOf(plugin).title}`;
  return existsSync(USER_PLUGIN.file()) ? `the ${USER_PLUGIN.title} plugin ${USER_PLUGIN.file()}` : null;
}

function report(a: Args, msgs: string[]): void {
  // `install … > .cursor/hooks.json`: standard output is a file install has just written; the report would overwrite it
  const into = outputIsWritten(msgs);
  if (into) {
    process.stderr.write(`standard output is ${into}, which install writes: the report goes to standard error\n`);
    if (!a.quiet) for (const m of msgs) process.stderr.write(`${m}\n`);
    return;
  }
  answer(a.json, { actions: msgs }, msgs);
}

/** The file a report line names (`<file>: wired …`) that standard output is, if any. */
function outputIsWritten(msgs: string[]): string | null {
  let out;
  try {
    out = fstatSync(1);
  } catch {
    return null;
  }
  if (!out.isFile()) return null;
  // the lines name files from the top of the worktree; the command may run below it
  const bases: string[] = [];
  for (let d = process.cwd(); !bases.includes(d); d = path.dirname(d)) bases.push(d);
  for (const name of msgs.map((m) => /^([^\s:][^:]*): /.exec(m)?.[1]).filter((n) => n !== undefined)) {
    const at = bases.map((base) => statOr(path.resolve(base, name)));
    if (at.some((st) => st?.ino === out.ino && st.dev === out.dev)) return name;
  }
  return null;
}

export const installCommand = command({
  command: 'install',
  describe: 'wire git hooks (default), agent clients, a remote or a server; idempotent',
  builder: (y) =>
    options(y)
      .example('$0 install --hooks --agent all', 'git hooks, and the guard in Claude Code, Gemini CLI and Codex settings')
      .example(`$0 install --agent ${AGENTS[0]} --private`, 'wire this clone only: the files stay out of git status and history')
      .example(PLUGIN_AGENTS.map((x) => [`$0 install --agent ${x} --${pluginOf(x).word}`, `the git-handoff ${pluginOf(x).word} for ${pluginOf(x).title} (every repository; no PATH needed)`]))
      .example('$0 install --remote origin', 'plain `git fetch` also brings handoffs into refs/handoff-remotes/origin/handoffs')
      .example('$0 install --server', 'in the bare repository everyone pushes to'),
  handler: (a) => run(a, 'install'),
});

export const uninstallCommand = command({
  command: 'uninstall',
  describe: 'remove exactly what install added (everything, or the parts named)',
  builder: (y) =>
    options(y).example('$0 uninstall', 'everything install added; a settings or notes file still as install left it comes back byte for byte, an edited one keeps the edits'),
  handler: (a) => run(a, 'uninstall'),
});

/** What this repository has of the shared protections, read from doctor's own rows. */
function sharedHere(repo: Repo, items: readonly DoctorItem[]): SharedProtections {
  const off = !setting(readConfig(repo), 'guard');
  // a client's guard does not hold here where one of its rows above (wiring, probe, trust gate) is broken
  const broken = (client: string) => items.some((i) => i.status === 'broken' && (i.component === `agent ${client}` || i.component.startsWith(`agent ${client} `)));
  const brokenHere = (client: string) => (broken(client) ? `no, not here: see the \`agent ${client}\` rows above` : null);
  const guardHere = (client: string) => (off ? 'off here (git config handoff.guard off)' : brokenHere(client));
  const hooks = items.filter((i) => i.component.startsWith('git hook '));
  const on = hooks.filter((i) => i.status === 'ok' || i.status === 'chained').length;
  const remote = items.some((i) => i.component.startsWith('remote '));
  return {
    gitHooks: on === hooks.length && on ? 'yes: installed here' : on ? 'partly: run `git handoff install --hooks`' : 'no: not installed here (`git handoff install --hooks`)',
    server: remote ? 'unknown from here (`install --server` on the remote)' : 'no remote',
    guardHere,
    brokenHere,
  };
}

/** doctor's second section: which protections hold in each client, or how to see them where no client is wired. */
function protectionSection(repo: Repo, rows: ProtectionRow[], every: boolean): string {
  if (!repo.worktree) return '';
  const title = every ? 'Protections in every client (this repository\'s state where doctor can check it):' : 'Protections in the clients wired here (`--all-clients`: every client):';
  if (!rows.length) return '\nNo agent client is wired here (`git handoff doctor --all-clients` shows what each would have).\n';
  return `\n${title}\n${table(rows, PROTECTION_HEADER.map((h) => h.toUpperCase()))}\n`;
}

export const doctorCommand = command({
  command: 'doctor',
  describe: 'report what is installed, chained, missing or broken, then which protections hold in each client wired here; exits 1 when something is wrong',
  builder: (y) => y.option('all-clients', { type: 'boolean', describe: 'the table of protections for every client, not only those wired here' }),
  handler: (a) => {
    const repo = openRepo();
    const top = repo.worktree;
    const mcp = top ? MCP_CLIENTS.filter((c) => mcpWired(c, top)) : [];
    // each wired MCP client's server asked for its tools (dist/mcp.cjs loaded only then)
    const mcpItems = top && mcp.length ? loadMcpBundle().doctorMcpClients(mcp, top) : [];
    // a bare repository is a server: its receive check and remotes, not agent clients nobody runs there
    const items: DoctorItem[] = [
      ...(repo.bare ? [...doctorSync(repo), ...doctorSecrets(repo)] : [...doctorHooks(repo), ...doctorAgents(repo), ...mcpItems, ...doctorPlugins(repo), ...doctorSync(repo), ...doctorSecrets(repo)]),
      ...doctorFormat(repo),
    ];
    const bad = items.some((i) => i.status === 'broken');
    // the protections of the clients wired in this worktree (every client with --all-clients), with this repository's state
    const wired = new Set<string>(top ? [...wiredAgents(top), ...mcp.map((c) => c.agent)] : []);
    const protections = top ? protectionRows(sharedHere(repo, items), wired, !!a.allClients) : [];
    const data = { ok: !bad, items, protections: protections.map((row) => Object.fromEntries(PROTECTION_HEADER.map((h, n) => [h, row[n]]))) };
    answer(a.json, data, table(items.map((i) => [i.component, i.status, i.detail]), ['COMPONENT', 'STATUS', 'DETAIL']) + '\n' + protectionSection(repo, protections, !!a.allClients));
    if (bad) process.exitCode = 1;
  },
});

// The git-handoff installations on PATH, as the wired hooks find them: a wiring names `git-handoff-guard`, and one its
// client runs with sh (Wiring.sh) reads `git-handoff-front` in, which reads in the first `git-handoff-guard` on PATH.
// Two installations on PATH can make that pair come from two of them: an older front read in finds no node and exits
// 127, and the client runs the call.
interface Installation {
  /** the installation's folder (the one holding bin/ and dist/), symlinks followed */
  root: string;
  /** the PATH directories that give its programs, in PATH order */
  dirs: string[];
  version: string | null;
  /** the copy running this command */
  self: boolean;
}

/** The folder of the installation a program belongs to: its bin/'s parent, symlinks (npm link, npm install -g) followed. */
const rootOf = (file: string): string => path.dirname(path.dirname(realpathOr(file)));

const describe = (i: Installation) => `${i.root} (${i.version ? `version ${i.version}` : 'version unknown'}${i.self ? ', the one running this install' : ''}; on PATH as ${i.dirs.join(', ')})`;

/**
 * Before `install --agent` writes a wiring that names programs on PATH: refuses (exit 7) where two installations would
 * make the hook of a wiring that reads the front in (`readsFrontIn`: Wiring.sh) exit 127, and otherwise says which
 * installation the hooks run when there are several.
 */
function checkPathInstallations(readsFrontIn: boolean): string[] {
  const byRoot = new Map<string, Installation>();
  // where each program is first found (only absolute entries: `exec` and `.` of a relative one depend on the directory)
  const first = new Map<string, string>();
  const self = realpathOr(path.resolve(__dirname, '..'));
  for (const dir of (process.env.PATH ?? '').split(':').filter((d) => path.isAbsolute(d))) {
    // the programs an installation puts on PATH (package.json's bin)
    for (const p of ownPackage().bins.filter((q) => runnable(path.join(dir, q)))) {
      const file = path.join(dir, p);
      if (!first.has(p)) first.set(p, file);
      const root = rootOf(file);
      const i: Installation = byRoot.get(root) ?? { root, dirs: [], version: versionIn(root), self: root === self };
      if (!i.dirs.includes(dir)) i.dirs.push(dir);
      byRoot.set(root, i);
    }
  }
  const installations = [...byRoot.values()];
  if (installations.length < 2) return [];
  const list = installations.map((i) => `  ${describe(i)}`).join('\n');
  const guard = first.get('git-handoff-guard');
  const front = first.get('git-handoff-front');
  // the front read in is the first git-handoff-guard: an installation without git-handoff-front beside it is older than
  // the wiring, and read in it exits 127 (bin/git-handoff-front)
  if (readsFrontIn && guard && front && path.dirname(guard) !== path.dirname(front) && !existsSync(path.join(path.dirname(guard), 'git-handoff-front'))) {
    throw new HandoffError(
      'environment',
      'installations-mixed',
      `${installations.length} git-handoff installations are on PATH:\n${list}\n` +
        `a hook run by sh would read in ${front} and, through it, ${guard}, an older front that cannot run read in: the hook ` +
        `would exit 127 and its client would run every call unchecked. Nothing was written. Take the older installation off PATH ` +
        `(or uninstall it: npm rm -g git-handoff where it came from), or put ${path.dirname(front)} before ${path.dirname(guard)} on PATH, then install again.`,
      { installations, mixed: { front, guard } },
    );
  }
  const runs = guard ? (installations.find((i) => i.root === rootOf(guard)) ?? null) : null;
  return [
    `${installations.length} git-handoff installations are on PATH:\n${list}\n` +
      `the hooks wired here run the first git-handoff-guard on PATH: ${runs ? runs.root : 'none'}${runs && !runs.self ? ' — not the one running this install; put the one you mean first on PATH, or take the other off' : ''}`,
  ];
}
