// What the sh front (bin/git-handoff-guard) may read of each client's hook calls, from the records: written into its
// generated block at build (scripts/front-words.mjs).
import type { EventKind } from './event';
import type { ClientName } from './names';
import type { FrontFacts } from './record';
import { ALL_RECORDS } from './records';
import type { Wiring } from './wiring';

/** The clients whose wirings run the front: every record with a wiring and front facts. */
export const FRONT_CLIENTS: ReadonlyArray<{ wiring: Wiring; facts: FrontFacts; plugin: boolean }> = ALL_RECORDS.flatMap((r) => (r.front && r.wiring ? [{ wiring: r.wiring, facts: r.front, plugin: !!r.plugin }] : []));

/** A client the front serves without being named (`git-handoff-guard` alone): those node tells apart by the payload. */
const UNNAMED: readonly ClientName[] = ['claude-code', 'gemini-cli', 'codex'];

/** The plain data scripts/front-words.mjs writes into the front: per client, its argument lists, keys, events by kind and tools. */
export function frontClients() {
  return FRONT_CLIENTS.map(({ wiring, facts, plugin }) => {
    const named = (k: EventKind) => Object.entries(facts.events ?? {}).filter(([, v]) => v === k).map(([n]) => n);
    // the argument lists its wirings give the front after `--client=<name>`: plain, as a plugin, the after-tool hook's
    const plain = [[], ...(plugin ? [['--plugin']] : [])];
    const args = { plain, after: wiring.after ? plain.map((a) => [...a, '--after']) : [] };
    return { client: wiring.client, args, keys: facts.keys, pre: named('pre-tool'), post: named('post-tool'), tools: facts.tools, unnamed: UNNAMED.includes(wiring.client) };
  });
}
