// Augment's Auggie CLI: Claude Code's format run through a script, its own tools, exit 2 refuses (docs/clients.md, Augment).
import { str, textEdit, type ToolAction } from './event';
import { CLAUDE_ANSWER, writeOf, type ToClaude } from './common';
import { clientRecord, PROBE_SESSION, type ClientRecord } from './record';
import { eachEvent, HOOK_TIMEOUT_S } from './wiring';

/** The tools Auggie ships that cannot write or run anything, as its hooks name them: viewing, reading, searching, the web. */
const READ_ONLY = ['view', 'codebase-retrieval', 'web-search', 'web-fetch', 'read-process', 'list-processes', 'view_tasklist'] as const;

/** Per clone (Augment's personal project settings), since the script's path is this worktree's. */
const AUGMENT_SETTINGS = '.augment/settings.local.json';
/** The script its hooks run (Augment runs a script's path, not a command line). */
const AUGMENT_SCRIPT = '.augment/hooks/git-handoff-guard.sh';

const EVENTS = { PreToolUse: undefined, SessionStart: undefined, Stop: undefined, SessionEnd: undefined };

/** str-replace-editor's numbered replacements and insertions (`old_str_1`, `new_str_1`, `insert_line_1`, …). */
function strReplace(a: Record<string, unknown>): ToolAction | null {
  const path = str(a.path);
  if (a.command === 'view') return { type: 'other' };
  if (path === null) return null;
  const edits: Array<{ oldText: string; newText: string }> = [];
  for (let i = 1; i < 1000; i++) {
    if (a[`old_str_${i}`] === undefined && a[`new_str_${i}`] === undefined) break;
    edits.push(textEdit(a[`old_str_${i}`], a[`new_str_${i}`]));
  }
  return { type: 'edit', path, edits };
}

const TOOLS: Record<string, ToClaude> = {
  // it runs in its `cwd`
  'launch-process': (a) => ({ tool: 'Bash', input: { ...a, directory: a.directory ?? a.cwd } }),
  'save-file': (a) => writeOf(a.path, a.file_content),
  'str-replace-editor': (a) => strReplace(a),
  // each file removed is judged as written
  'remove-files': (a) => (Array.isArray(a.file_paths) ? { type: 'paths', paths: a.file_paths.filter((f): f is string => typeof f === 'string') } : null),
};

export const record: ClientRecord = clientRecord({
  name: 'augment',
  home: { dir: '.augment' },
  hookFiles: {
    project: ['.augment/settings.json', AUGMENT_SCRIPT],
    local: [AUGMENT_SETTINGS],
    user: ['.augment/settings.json'],
    system: ['/etc/augment/settings.json'],
  },
  // no matcher: every tool comes (MCP ones too, `is_mcp_tool`), these are read as reads
  readOnly: READ_ONLY,
  mcpNames: '<tool>_<server> (is_mcp_tool: true)',
  shape: { tools: TOOLS, session: ['conversation_id'] },
  // a refusal by exit 2 (its stderr reaches the agent); context and a Stop's block in Claude Code's shape
  answer: { ...CLAUDE_ANSWER, deny: 'exit' },
  probes: (cwd, command) => [['launch-process', { hook_event_name: 'PreToolUse', conversation_id: PROBE_SESSION, workspace_roots: [cwd], tool_name: 'launch-process', tool_input: { command, wait: true, cwd }, is_mcp_tool: false }]],
  wiring: {
    settings: AUGMENT_SETTINGS,
    events: EVENTS,
    timeoutMs: true,
    files: (command, worktree) => {
      const group = { hooks: [{ type: 'command', command: `${worktree}/${AUGMENT_SCRIPT}`, timeout: HOOK_TIMEOUT_S * 1000 }] };
      return [
        { file: AUGMENT_SCRIPT, text: `#!/bin/sh\n# git-handoff's hook for Augment: \`git handoff uninstall --agent augment\` removes it.\nexec ${command}\n`, mode: 0o755 },
        { file: AUGMENT_SETTINGS, json: { at: ['hooks'], entries: eachEvent(EVENTS, () => group) } },
      ];
    },
    runs: (_command, worktree) => `${worktree}/${AUGMENT_SCRIPT}`,
  },
});
