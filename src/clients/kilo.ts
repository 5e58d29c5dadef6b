// Kilo Code's CLI: an OpenCode fork; the OpenCode plugin with Kilo's folders and variable (docs/clients.md, Kilo Code).
import type { ToClaude } from './common';
import { pluginClient } from './opencode';
import type { ClientRecord } from './record';

/** The tools Kilo Code (7.7.7) ships that cannot write or run anything: OpenCode's, and Kilo's board and recall. */
const READ_ONLY = ['read', 'grep', 'glob', 'list', 'todowrite', 'todoread', 'webfetch', 'websearch', 'codesearch', 'question', 'task', 'board_read', 'kilo_local_recall'] as const;

/** background_process runs its command on start and restart (a shell call); its other actions read or stop. */
const background: ToClaude = (a) => (a.action === 'start' || a.action === 'restart' ? { tool: 'Bash', input: a } : { type: 'other' });

export const record: ClientRecord = pluginClient('Kilo Code', {
  name: 'kilo-code',
  hookFiles: { project: ['.kilo/plugin/git-handoff.js'], user: ['$XDG_CONFIG_HOME/kilo/plugin/git-handoff.js'] },
  pluginDirs: {
    project: ['.kilo/plugin', '.kilo/plugins', '.kilocode/plugin', '.kilocode/plugins'],
    user: ['$XDG_CONFIG_HOME/kilo/plugin', '$XDG_CONFIG_HOME/kilo/plugins', '.kilo/plugin'],
  },
  readOnly: READ_ONLY,
  tools: { background_process: background },
});
