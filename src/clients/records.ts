// Every client's record (./record.ts), by its name: what wiring, routing, the perimeter, doctor and the sh front read.
import { AGENT_CLIENT, AGENTS, type Agent, type ClientName } from './names';
import { record as claude } from './claude';
import { record as codex } from './codex';
import { record as copilot } from './copilot';
import { record as cursor } from './cursor';
import { record as gemini } from './gemini';
import { record as opencode } from './opencode';
import { record as qwen } from './qwen';
import type { ClientRecord, PluginFacts } from './record';
import type { Wiring } from './wiring';
import { record as vscode } from './vscode';
import { record as droid } from './droid';
import { record as cline } from './cline';
import { record as windsurf } from './windsurf';
import { record as kiro } from './kiro';
import { record as augment } from './augment';
import { record as devin } from './devin';
import { record as crush } from './crush';
import { record as kilo } from './kilo';

export const RECORDS: Readonly<Record<ClientName, ClientRecord>> = {
  'claude-code': claude,
  'gemini-cli': gemini,
  codex,
  cursor,
  copilot,
  opencode,
  'qwen-code': qwen,
  vscode,
  'factory-droid': droid,
  cline,
  windsurf,
  kiro,
  augment,
  'devin-cli': devin,
  crush,
  'kilo-code': kilo,
};

/** The records in the vocabulary's order (./names.ts CLIENT_NAMES). */
export const ALL_RECORDS: readonly ClientRecord[] = Object.values(RECORDS);

/** Every client's read-only tools: a tool named so reads, whichever client sent it (none is another's writer: test). */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(ALL_RECORDS.flatMap((r) => r.readOnly));

/** The programs a client's shell runs as an apply_patch (ClientRecord.patchPrograms). */
export const PATCH_PROGRAMS: readonly string[] = ALL_RECORDS.flatMap((r) => r.patchPrograms ?? []);

/** Every client's wiring by its `install --agent` name (what src/install/agents.ts writes, removes and checks). */
export const WIRING = Object.fromEntries(ALL_RECORDS.flatMap((r) => (r.agent && r.wiring ? [[r.agent, r.wiring]] : []))) as Record<Agent, Wiring>;

/** The clients whose wiring also comes as a user-wide package (ClientRecord.plugin), by their `install --agent` name. */
export const PLUGIN_AGENTS: readonly Agent[] = AGENTS.filter((a) => RECORDS[AGENT_CLIENT[a]].plugin);
export const pluginOf = (agent: Agent): PluginFacts => RECORDS[AGENT_CLIENT[agent]].plugin!;
