// `git handoff mcp`: the stdio MCP server for agents without hooks (src/mcp/server.ts). Its code and the SDK are a
// bundle of their own (dist/mcp.cjs), loaded here only, so no other command pays for them.
import path from 'node:path';
import { MCP_CLIENTS } from '../../clients/mcp-clients';
import { openRepo } from '../../git/repo';
import { CLAIMS_PREFIX } from '../../handoff/claims/table';
import { appendLedger } from '../../handoff/state/ledger';
import { claimRecord } from '../../handoff/state/lineage-record';
import { describeProcess, recordSessionProcess } from '../../handoff/state/session-process';
import { touchLease } from '../../handoff/store/leases';
import { HANDOFF_PREFIX } from '../../handoff/store/names';
import { command } from '../context';
import { loadBundle, packageVersion } from '../version';

/** dist/mcp.cjs: the server, and the install of an MCP client's configuration. */
export const loadMcpBundle = () => loadBundle<typeof import('../../mcp/bundle')>('mcp.cjs');

/**
 * A new session, recorded where a client's session start records one: its lineage record (with the MCP client's
 * name), its process (this server: the session is gone when it exits), the worktree's lease when free, a ledger line.
 */
function recordSession(session: string, client: string): void {
  const repo = openRepo();
  const proc = describeProcess(process.pid);
  const worktree = repo.worktree ?? repo.commonDir;
  const t = Date.now();
  claimRecord(repo.commonDir, { session, client, pid: proc.pid, procStart: proc.start, worktree, source: 'mcp', from: null, t, inherited: [], lease: false });
  recordSessionProcess(repo.commonDir, session, proc);
  if (repo.worktree) touchLease(repo, session, repo.worktree, { client, pid: proc.pid, process: proc });
  appendLedger(repo.commonDir, { t, session, worktree, paths: [] });
}

/** The handoff and claims refs now, each named as a reader says it. */
function watchedRefs(): Map<string, string> {
  const name = (ref: string) => (ref.startsWith(HANDOFF_PREFIX) ? `handoff ${ref.slice(HANDOFF_PREFIX.length)}` : `claims on ${ref.slice(CLAIMS_PREFIX.length)}`);
  return new Map(openRepo().listRefs([HANDOFF_PREFIX, CLAIMS_PREFIX]).map((r) => [name(r.ref), r.oid]));
}

export const mcpCommand = command({
  command: 'mcp',
  describe: `a stdio MCP server for agents without hooks (${MCP_CLIENTS.map((c) => c.title).join(', ')}): handoff tools under a session it gives each connection`,
  builder: (y) =>
    y
      .example('$0 mcp', 'serve MCP on stdin/stdout in this repository (an MCP client starts it: `git handoff install --agent zed`)')
      .example('$0 -C ~/src/app mcp', 'in another repository'),
  handler: async () => {
    // a repository to serve, said before any client connects
    openRepo();
    await loadMcpBundle().serveMcp({ bin: path.join(__dirname, '..', 'bin', 'git-handoff'), version: packageVersion(), record: recordSession, refs: watchedRefs });
  },
});
