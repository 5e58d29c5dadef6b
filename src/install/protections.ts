// doctor's table of protections: each client's row (src/clients/protections.ts) with this repository's state of the
// protections doctor can check (git hooks installed, a remote to check pushes, an MCP client's server answering).
import { setting } from '../config-keys';
import { readConfig } from '../git/config';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';
import { MCP_CLIENTS, mcpWired } from '../clients/mcp-clients';
import { protectionRows, type ProtectionRow, type SharedProtections } from '../clients/protections';
import { wiredAgents } from './agents';

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

/** The rows for the clients wired in this worktree (every client when `every`), with this repository's state. */
export function doctorProtections(repo: Repo, items: readonly DoctorItem[], every: boolean): ProtectionRow[] {
  if (!repo.worktree) return [];
  const top = repo.worktree;
  const wired = new Set<string>([...wiredAgents(top), ...MCP_CLIENTS.filter((c) => mcpWired(c, top)).map((c) => c.agent)]);
  return protectionRows(sharedHere(repo, items), wired, every);
}
