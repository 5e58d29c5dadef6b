// Crush: Claude Code-like hooks under `hooks` of crush.json, exit 2 refuses (docs/clients.md, Crush).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { EventKind } from './event';
import { editOf, writeOf, type ToClaude } from './common';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';
import { HOOK_TIMEOUT_S } from './wiring';

/** The tools Crush ships that cannot write or run anything: viewing, listing, searching, fetching, diagnostics, a job's output. */
const READ_ONLY = ['view', 'ls', 'glob', 'grep', 'fetch', 'sourcegraph', 'diagnostics', 'job_output'] as const;

/** The project files it reads `hooks` from, the first one there taking git-handoff's entries (`.crush.json` when neither is). */
const PROJECT_FILES = ['.crush.json', 'crush.json'];

const KINDS: Record<string, EventKind> = { PreToolUse: 'pre-tool', PreCompact: 'pre-compact' };

const TOOLS: Record<string, ToClaude> = {
  bash: (a) => ({ tool: 'Bash', input: a }),
  write: (a) => writeOf(a.file_path, a.content),
  edit: (a) => editOf(a),
  multiedit: (a) => ({ tool: 'MultiEdit', input: a }),
};

export const record: ClientRecord = clientRecord({
  name: 'crush',
  home: { variable: 'XDG_CONFIG_HOME', dir: '.config' },
  hookFiles: { project: PROJECT_FILES, user: ['$XDG_CONFIG_HOME/crush/crush.json'] },
  readOnly: READ_ONLY,
  mcpNames: 'mcp_<server>_<tool>',
  // CRUSH_SESSION_ID is documented for hooks, not for its bash tool
  shellSession: 'never',
  shape: { kinds: KINDS, tools: TOOLS, event: ['event', 'hook_event_name'], source: [] },
  answer: { deny: 'exit', allow: { context: '$told' } },
  probes: (cwd, command) => [['bash', { event: 'PreToolUse', session_id: PROBE_SESSION, cwd, tool_name: 'bash', tool_input: { command } }]],
  wiring: {
    settings: PROJECT_FILES[0],
    events: { PreToolUse: undefined },
    files: (command, worktree) => [
      {
        file: PROJECT_FILES.find((f) => existsSync(path.join(worktree, f))) ?? PROJECT_FILES[0],
        // no matcher: every tool, the read-only ones read as reads
        json: { at: ['hooks'], entries: { PreToolUse: [{ name: 'git-handoff', command, timeout: HOOK_TIMEOUT_S }] } },
      },
    ],
  },
});
