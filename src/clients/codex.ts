// Codex: Claude Code's hook wire format (PreToolUse/PostToolUse/SessionStart/Stop), told apart by `turn_id`;
// file edits arrive as one `apply_patch` envelope.
import type { ClientAdapter } from '../guard/event';
import { parseClaudeLike, renderClaudeLike } from './claude';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

export const wiring: Wiring = {
  client: 'codex',
  format: 'settings',
  settings: '.codex/hooks.json',
  // No PostToolUse, as for Claude Code: Codex shows a PreToolUse additionalContext to the model (observed with 0.169).
  events: { PreToolUse: 'Bash|apply_patch|Edit|Write', SessionStart: undefined, Stop: undefined, PreCompact: undefined, SessionEnd: undefined },
  // hooks run as `bash -c <command>` (execve traces)
  bash: true,
  timeout: HOOK_TIMEOUT_S,
  named: false,
  notes: 'AGENTS.md',
  // Codex reads a project's skills from .agents/skills, as its binary showed
  skills: '.agents/skills',
};

export const codex: ClientAdapter = {
  client: 'codex',
  parse: (p) => parseClaudeLike('codex', p),
  render: renderClaudeLike,
};
