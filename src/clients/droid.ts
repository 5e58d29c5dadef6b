// Factory droid: Claude Code's payload and answers with its own tools, in .factory/hooks.json (docs/clients.md, droid).
import { editOf, writeOf, type ToClaude } from './common';
import { claudeProbe, clientRecord, type ClientRecord, routedEvents } from './record';
import { afterCommand, claudeGroup, eachEvent, shPayloadCommand } from './wiring';

/** The tools droid (0.225.2) ships that cannot write or run anything. */
const READ_ONLY = ['Read', 'LS', 'Grep', 'Glob', 'TaskOutput', 'ToolSearch', 'WebSearch', 'FetchUrl'] as const;

const DROID_HOOKS_FILE = '.factory/hooks.json';

const TOOLS: Record<string, ToClaude> = {
  Execute: (a) => ({ tool: 'Bash', input: a }),
  Create: (a) => writeOf(a.file_path, a.content),
  Edit: (a) => editOf(a),
};

// PostToolUse carries a warning PreToolUse could not show the model (droid shows a before-tool context to nobody)
const EVENTS = routedEvents(READ_ONLY, ['PreToolUse', 'PostToolUse'], ['SessionStart', 'Stop', 'SessionEnd']);

export const record: ClientRecord = clientRecord({
  name: 'factory-droid',
  home: { dir: '.factory' },
  // settings.json is read for hooks where no hooks.json is in that scope
  hookFiles: { project: [DROID_HOOKS_FILE, '.factory/settings.json'], user: ['.factory/hooks.json', '.factory/settings.json'] },
  // droid's plugins carry hooks of their own
  pluginDirs: { user: ['.factory/plugins'] },
  readOnly: READ_ONLY,
  mcpNames: '<server>___<tool>',
  contextBeforeTool: false,
  probes: claudeProbe('Execute', (command) => ({ permission_mode: 'auto-high', tool_input: { command, riskLevel: 'low' } })),
  shape: { tools: TOOLS },
  wiring: {
    settings: DROID_HOOKS_FILE,
    events: EVENTS,
    after: 'PostToolUse',
    // hooks run as `sh -c <command>`: that sh runs the sh front itself
    sh: true,
    files: (command) => {
      const entries = eachEvent(EVENTS, (e, m) => claudeGroup(m, e === 'PostToolUse' ? afterCommand(command) : shPayloadCommand(command)));
      return [{ file: DROID_HOOKS_FILE, json: { at: [], entries } }];
    },
  },
  front: { tools: { Execute: 'command', Create: 'write', Edit: 'file_path' } },
});
