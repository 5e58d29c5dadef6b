// Devin CLI: Claude Code's groups and events, its own tools, no cwd, exit 2 refuses (docs/clients.md, Devin CLI).
import path from 'node:path';
import type { GuardEvent } from './event';
import { CLAUDE_ANSWER, editOf, writeOf, type ToClaude } from './common';
import { claudeProbe, clientRecord, type ClientRecord, routedEvents } from './record';
import { claudeGroup, eachEvent, wiredWithGuard } from './wiring';

/** The tools Devin CLI names that cannot write or run anything. */
const READ_ONLY = ['read', 'webfetch'] as const;

const DEVIN_HOOKS_FILE = '.devin/hooks.v1.json';
/** What Devin CLI gives its hooks in place of a payload `cwd`. */
const PROJECT_VAR = 'DEVIN_PROJECT_DIR';

const EVENTS = routedEvents(READ_ONLY, ['PreToolUse'], ['SessionStart', 'Stop', 'SessionEnd']);

const TOOLS: Record<string, ToClaude> = {
  exec: (a) => ({ tool: 'Bash', input: a }),
  write: (a) => writeOf(a.file_path ?? a.path, a.content),
  edit: (a) => editOf(a),
  notebook_edit: (a) => ({ tool: 'NotebookEdit', input: a }),
};

/** A payload Devin CLI sent, through its own wiring or Claude Code's: Claude Code's events, no `cwd`, its variable or `prompt_id`. */
const isDevinPayload = (p: Record<string, unknown>): boolean =>
  p.cwd === undefined && typeof p.hook_event_name === 'string' && /^[A-Z]/.test(p.hook_event_name) && typeof p.session_id === 'string' && (process.env[PROJECT_VAR] !== undefined || p.prompt_id !== undefined);

/** Where git-handoff's own Devin wiring is in the project, it answers Devin's calls, not the Claude Code wiring. */
const devinAnswersNatively = (e: GuardEvent): boolean =>
  e.client === 'devin-cli' && wiredWithGuard(path.join(process.env[PROJECT_VAR] || e.cwd, DEVIN_HOOKS_FILE));

export const record: ClientRecord = clientRecord({
  name: 'devin-cli',
  home: { dir: '.config/devin' },
  hookFiles: { project: [DEVIN_HOOKS_FILE, '.devin/config.json'], user: ['.config/devin/config.json'] },
  readOnly: READ_ONLY,
  shape: { tools: TOOLS, cwdVar: PROJECT_VAR },
  // a refusal by exit 2 with the reason on stderr; context and a Stop's block in Claude Code's shape, which it reads
  answer: { ...CLAUDE_ANSWER, deny: 'exit' },
  readsClaude: 'always ("existing hooks in .claude/ are picked up automatically")',
  rides: [{ wiring: 'claude-code', payload: isDevinPayload, answeredElsewhere: devinAnswersNatively }],
  probes: claudeProbe('exec', () => ({ prompt_id: 'doctor' })),
  wiring: {
    settings: DEVIN_HOOKS_FILE,
    events: EVENTS,
    files: (command) => [{ file: DEVIN_HOOKS_FILE, json: { at: [], entries: eachEvent(EVENTS, (_, m) => claudeGroup(m, command)) } }],
  },
});
