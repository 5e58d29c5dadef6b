// The client process a hook runs for, for the lease and for `sessions` (a session whose process has exited is not
// live). Claude Code names it (CLAUDE_PID, checked to be an ancestor: src/guard/lineage.ts); Codex and Gemini CLI
// name none, so it is the nearest ancestor that is the client: Codex's native `codex` binary, Gemini CLI's node
// running its gemini bundle (observed with Codex 0.169.0 and Gemini CLI 0.61.0, which relaunches itself: the
// nearest one is the CLI proper). Only where /proc says; null elsewhere.
import { readFileSync } from 'node:fs';
import { ancestors } from '../handoff/state/lineage-record';
import type { GuardClient } from '../clients/event';
import { clientPid } from './lineage';

const IS_CLIENT: Partial<Record<GuardClient, (argv: string[], comm: string) => boolean>> = {
  codex: (argv, comm) => comm === 'codex' || /(^|\/)codex$/.test(argv[0] ?? ''),
  'gemini-cli': (argv) => argv.slice(0, 3).some((a) => /(^|\/)gemini(\.js)?$/.test(a)),
};

function nearestAncestor(test: (argv: string[], comm: string) => boolean): number | null {
  for (const { pid, argv } of ancestors()) {
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return null;
    }
    if (test(argv, comm)) return pid;
  }
  return null;
}

/** The pid of the client process this hook runs for, or null when it cannot be told. */
export function clientProcess(client: GuardClient, env: NodeJS.ProcessEnv): number | null {
  if (client === 'claude-code') return clientPid(client, env);
  const test = IS_CLIENT[client];
  return test ? nearestAncestor(test) : null;
}
