// Every client's wiring by its `install --agent` name (what src/install/agents.ts writes, removes and checks), read
// from the client records: a client with an agent name and a wiring of its own.
import type { Agent } from './names';
import { ALL_RECORDS } from './records';
import type { Wiring } from './wiring';

export const WIRING = Object.fromEntries(ALL_RECORDS.flatMap((r) => (r.agent && r.wiring ? [[r.agent, r.wiring]] : []))) as Record<Agent, Wiring>;
