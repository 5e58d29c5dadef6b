// Kilo Code's CLI: an OpenCode fork; the OpenCode plugin with Kilo's folders and variable (docs/clients.md, Kilo Code).
import type { ToClaude } from './common';
import { PLUGIN_ANSWER, pluginModule, SHAPE, wiring as opencodeWiring } from './opencode';
import { claudeProbe, clientRecord, type ClientRecord } from './record';
import type { Wiring } from './wiring';

/** The tools Kilo Code (7.7.7) ships that cannot write or run anything: OpenCode's, and Kilo's board and recall. */
const READ_ONLY = ['read', 'grep', 'glob', 'list', 'todowrite', 'todoread', 'webfetch', 'websearch', 'codesearch', 'question', 'task', 'board_read', 'kilo_local_recall'] as const;

const KILO_PLUGIN_FILE = '.kilo/plugin/git-handoff.js';

export const wiring: Wiring = {
  ...opencodeWiring,
  client: 'kilo-code',
  settings: KILO_PLUGIN_FILE,
  skills: null,
  files: (command) => [{ file: KILO_PLUGIN_FILE, text: pluginModule('kilo-code', 'Kilo Code', READ_ONLY, command) }],
};

/** background_process runs its command on start and restart (a shell call); its other actions read or stop. */
const background: ToClaude = (a) => (a.action === 'start' || a.action === 'restart' ? { tool: 'Bash', input: a } : { type: 'other' });

export const record: ClientRecord = clientRecord({
  name: 'kilo-code',
  home: { variable: 'XDG_CONFIG_HOME', dir: '.config' },
  hookFiles: [
    { scope: 'project', file: KILO_PLUGIN_FILE },
    { scope: 'user', file: '$XDG_CONFIG_HOME/kilo/plugin/git-handoff.js' },
  ],
  pluginDirs: [
    { scope: 'project', file: '.kilo/plugin' },
    { scope: 'project', file: '.kilo/plugins' },
    { scope: 'project', file: '.kilocode/plugin' },
    { scope: 'project', file: '.kilocode/plugins' },
    { scope: 'user', file: '$XDG_CONFIG_HOME/kilo/plugin' },
    { scope: 'user', file: '$XDG_CONFIG_HOME/kilo/plugins' },
    { scope: 'user', file: '.kilo/plugin' },
  ],
  readOnly: READ_ONLY,
  routing: 'plugin',
  mcpNames: '<server>_<tool>',
  shellSession: 'always',
  shape: { ...SHAPE, tools: { ...SHAPE.tools, background_process: background } },
  answer: PLUGIN_ANSWER,
  contextBeforeTool: true,
  probes: claudeProbe('bash'),
  wiring,
});
