// Which protections hold in each client, read from the client records: the README's table and doctor's.
import type { ClientName } from './names';
import { MCP_CLIENTS } from './mcp-clients';
import type { ClientRecord } from './record';
import { ALL_RECORDS, RECORDS } from './records';

/** What a repository says of the protections every client shares: doctor states this repository's, the README the condition. */
export interface SharedProtections {
  gitHooks: string;
  server: string;
  /** this repository's word on a hooked client's guard (by its row's name) where it does not hold here, else null */
  guardHere?: (client: string) => string | null;
  /** this repository's word on an MCP client whose doctor rows are broken, else null */
  brokenHere?: (client: string) => string | null;
}

export const PROTECTIONS_IN_GENERAL: SharedProtections = {
  gitHooks: 'yes, where installed (`install --hooks`)',
  server: 'yes, where installed on the remote (`install --server`)',
};

export const PROTECTION_HEADER = ['client', 'guard on each tool call', 'git hooks (commit/push/ref checks)', 'server check', 'MCP tools'];

/** One client's row: its `install --agent` name, then each protection as PROTECTION_HEADER names them. */
export type ProtectionRow = [string, string, string, string, string];

// the client whose wiring a client without one of its own runs (VS Code's agent: the Claude Code wiring)
const CLAUDE: ClientName = 'claude-code';

function guardOn(r: ClientRecord): string {
  if (!r.wiring) return r.readsClaude ? `yes, through \`install --agent ${RECORDS[CLAUDE].agent}\`'s wiring` : 'no';
  const trusted = r.trustFiles.length ? ', once trusted in the client (doctor checks)' : '';
  return `yes${trusted}${r.guardLimit ? `; ${r.guardLimit}` : ''}`;
}

/** The `install --agent` name that wires a hooked client: its own, or the one whose wiring it runs (VS Code's agent). */
const wiredBy = (r: ClientRecord): string => r.agent ?? (r.readsClaude ? RECORDS[CLAUDE].agent! : r.name);

/** Every client's row (hook clients, then MCP-only ones); with `wired` (doctor) those wired here, or `every` row saying so. */
export function protectionRows(shared: SharedProtections = PROTECTIONS_IN_GENERAL, wired?: ReadonlySet<string>, every = false): ProtectionRow[] {
  const here = (name: string) => !wired || wired.has(name);
  const notWired = (name: string) => `not wired here (\`install --agent ${name}\`)`;
  const hooked = ALL_RECORDS.filter((r) => every || here(wiredBy(r))).map((r): ProtectionRow => [
    r.agent ?? r.name,
    here(wiredBy(r)) ? ((r.wiring || r.readsClaude ? shared.guardHere?.(wiredBy(r)) : null) ?? guardOn(r)) : notWired(wiredBy(r)),
    // its shell turns git's hooks off; the guard's rewrite of a git command turns them back on (src/guard/rules/pre-tool.ts)
    r.shellHooksOff ? `${shared.gitHooks} (its shell turns them off; the guard turns them on again in the git commands it rewrites)` : shared.gitHooks,
    shared.server,
    'not needed: `git handoff` in its shell',
  ]);
  const mcp = MCP_CLIENTS.filter((c) => every || here(c.agent)).map((c): ProtectionRow => [
    c.agent,
    'no: only its `handoff_*` tools are checked',
    shared.gitHooks,
    shared.server,
    here(c.agent) ? (shared.brokenHere?.(c.agent) ?? `yes (\`install --agent ${c.agent}\`)`) : notWired(c.agent),
  ]);
  return [...hooked, ...mcp];
}

/** The rows as a markdown table (the README's, between its markers). */
export const protectionMarkdown = (rows: readonly ProtectionRow[]): string =>
  [PROTECTION_HEADER, PROTECTION_HEADER.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
