// `git handoff install | uninstall | doctor`: wiring that is idempotent and reversible.
import type { Argv, CommandModule } from 'yargs';
import { HandoffError } from '../../errors';
import { openRepo } from '../../git/repo';
import { doctorAgents, installAgents, uninstallAgents } from '../../guard/install';
import { doctorHooks, installHooks, uninstallHooks } from '../../hooks/install';
import { doctorSync, installRemote, installServer, uninstallRemote, uninstallServer } from '../../sync/install';
import type { DoctorItem, InstallOptions } from '../../wiring';
import type { GlobalArgs } from '../context';
import { printJson, table } from '../output';

interface Args extends GlobalArgs {
  hooks?: boolean;
  agent?: string[];
  remote?: string;
  server?: boolean;
  launcher?: string;
}

const AGENTS = ['claude', 'gemini', 'codex'] as const;

function agentsOf(list: string[] | undefined): InstallOptions['agents'] {
  if (!list?.length) return undefined;
  const out = new Set<(typeof AGENTS)[number]>();
  for (const a of list.flatMap((x) => String(x).split(','))) {
    if (a === 'all') AGENTS.forEach((x) => out.add(x));
    else if ((AGENTS as readonly string[]).includes(a)) out.add(a as (typeof AGENTS)[number]);
    else throw new HandoffError('usage', 'unknown-agent', `unknown agent client "${a}": use claude, gemini, codex or all`);
  }
  return [...out];
}

const options = (y: Argv<GlobalArgs>) =>
  y
    .option('hooks', { type: 'boolean', describe: 'the git hooks (prepare-commit-msg, commit-msg, pre-commit, pre-push, reference-transaction)' })
    .option('agent', { type: 'string', array: true, describe: 'agent client wiring: claude, gemini, codex or all' })
    .option('remote', { type: 'string', describe: 'fetch refspecs that carry handoffs from remote R' })
    .option('server', { type: 'boolean', describe: 'in a bare repository: hold pushes to the ownership invariant' })
    .option('launcher', { type: 'string', describe: 'agent hooks run this git-handoff executable (quoted, forward slashes; `git handoff` through git) instead of `git-handoff` on PATH' });

async function run(a: Args, mode: 'install' | 'uninstall'): Promise<void> {
  const repo = openRepo();
  const agents = agentsOf(a.agent);
  const explicit = a.hooks || agents || a.remote !== undefined || a.server;
  const msgs: string[] = [];
  if (mode === 'install') {
    if (a.server) msgs.push(...(await installServer(repo)));
    if (a.hooks || (!explicit && !repo.bare)) msgs.push(...installHooks(repo));
    if (agents) msgs.push(...installAgents(repo, { agents, command: a.launcher }));
    if (a.remote !== undefined) msgs.push(...(await installRemote(repo, a.remote)));
  } else {
    const all = !explicit;
    if (a.server || (all && repo.bare)) msgs.push(...(await uninstallServer(repo)));
    if (a.hooks || all) msgs.push(...uninstallHooks(repo));
    if (agents || all) msgs.push(...uninstallAgents(repo, { agents: agents ?? [...AGENTS] }));
    if (a.remote !== undefined || all) msgs.push(...(await uninstallRemote(repo, a.remote || undefined)));
  }
  if (a.json) return printJson({ actions: msgs });
  if (!a.quiet) for (const m of msgs) process.stdout.write(`${m}\n`);
}

export const installCommand: CommandModule<GlobalArgs, Args> = {
  command: 'install',
  describe: 'wire git hooks (default), agent clients, a remote or a server; idempotent',
  builder: (y: Argv<GlobalArgs>) =>
    options(y)
      .example('$0 install --hooks --agent all', 'git hooks, and the guard in Claude Code, Gemini CLI and Codex settings')
      .example('$0 install --remote origin', 'plain `git fetch` also brings handoffs into refs/remotes/origin/handoffs')
      .example('$0 install --server', 'in the bare repository everyone pushes to') as unknown as Argv<Args>,
  handler: (a) => run(a, 'install'),
};

export const uninstallCommand: CommandModule<GlobalArgs, Args> = {
  command: 'uninstall',
  describe: 'remove exactly what install added (everything, or the parts named)',
  builder: (y: Argv<GlobalArgs>) => options(y).example('$0 uninstall', 'everything install added, restored byte for byte') as unknown as Argv<Args>,
  handler: (a) => run(a, 'uninstall'),
};

export const doctorCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'doctor',
  describe: 'report what is installed, chained, missing or broken; exits 1 when something is wrong',
  handler: (a) => {
    const repo = openRepo();
    const items: DoctorItem[] = [...doctorHooks(repo), ...doctorAgents(repo), ...doctorSync(repo)];
    const bad = items.some((i) => i.status === 'broken');
    if (a.json) printJson({ ok: !bad, items });
    else process.stdout.write(table(items.map((i) => [i.component, i.status, i.detail]), ['COMPONENT', 'STATUS', 'DETAIL']) + '\n');
    if (bad) process.exitCode = 1;
  },
};
