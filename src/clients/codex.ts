// Codex: Claude Code's hook wire format (PreToolUse/PostToolUse/SessionStart/Stop), told apart by `turn_id`;
// file edits arrive as one `apply_patch` envelope.
import type { ClientAdapter } from './event';
import { front as claudeFront, parseClaudeLike, renderClaudeLike } from './claude';
import type { FrontFacts } from './front';
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
  // Codex 0.169.0 runs a SessionEnd hook for at most 3 s while it exits, and says "clamping SessionEnd hook timeout to
  // 3s" at every start for a longer one (observed); its trust hash counts it as 3 either way (install/codex-trust.ts)
  eventTimeouts: { SessionEnd: 3 },
  named: false,
  notes: 'AGENTS.md',
  // Codex reads a project's skills from .agents/skills, as its binary showed
  skills: '.agents/skills',
};

/** What the sh front reads of Codex's calls: Claude Code's payload, its shell tool by its names old and new, and apply_patch. */
export const front: FrontFacts = {
  keys: claudeFront.keys,
  events: claudeFront.events,
  tools: { Bash: 'command', shell: 'command', exec_command: 'command', Write: 'write', Edit: 'file_path', apply_patch: 'patch' },
};

export const codex: ClientAdapter = {
  client: 'codex',
  parse: (p) => parseClaudeLike('codex', p),
  render: renderClaudeLike,
};
