// Codex: Claude Code's hook wire format (PreToolUse/PostToolUse/SessionStart/Stop), told apart by `turn_id`;
// file edits arrive as one `apply_patch` envelope.
import type { ClientAdapter } from '../event';
import { parseClaudeLike, renderClaudeLike } from './claude';

export const codex: ClientAdapter = {
  client: 'codex',
  parse: (p) => parseClaudeLike('codex', p),
  render: renderClaudeLike,
};
