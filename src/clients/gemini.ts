// Gemini CLI: BeforeTool/AfterTool/SessionStart/AfterAgent/PreCompress; answers with top-level decision/reason,
// a rewritten input in hookSpecificOutput.tool_input, context in hookSpecificOutput.additionalContext.
import { str, type ClientAdapter, type EventKind } from './event';
import { parseCommonPayload } from './common';
import type { FrontFacts } from './front';
import { HOOK_TIMEOUT_S, type Wiring } from './wiring';

export const wiring: Wiring = {
  client: 'gemini-cli',
  format: 'settings',
  settings: '.gemini/settings.json',
  // AfterTool only carries a warning BeforeTool could not show the model; the sh front answers it alone otherwise.
  events: {
    BeforeTool: 'write_file|replace|run_shell_command',
    AfterTool: 'write_file|replace|run_shell_command',
    SessionStart: undefined,
    AfterAgent: undefined,
    PreCompress: undefined,
    SessionEnd: undefined,
  },
  // hooks run as `bash -c <command>` (its hookRunner's getShellConfiguration on Linux and macOS)
  bash: true,
  after: 'AfterTool',
  // Gemini CLI counts hook timeouts in milliseconds.
  timeout: HOOK_TIMEOUT_S * 1000,
  named: true,
  notes: 'GEMINI.md',
  skills: '.gemini/skills',
};

const KINDS: Record<string, EventKind> = {
  BeforeTool: 'pre-tool',
  AfterTool: 'post-tool',
  SessionStart: 'session-start',
  AfterAgent: 'stop',
  PreCompress: 'pre-compact',
  SessionEnd: 'session-end',
};

/** What the sh front reads of Gemini CLI's calls (src/clients/front.ts). */
export const front: FrontFacts = {
  keys: { session: 'session_id', tool: 'tool_name', event: 'hook_event_name', input: 'tool_input' },
  events: KINDS,
  tools: { run_shell_command: 'command', write_file: 'write', replace: 'file_path' },
  plugin: true,
};

export const gemini: ClientAdapter = {
  client: 'gemini-cli',
  parse: (p) => parseCommonPayload('gemini-cli', KINDS, p, str(p.source) ?? str(p.trigger) ?? str(p.reason)),
  render(e, d) {
    const out: Record<string, unknown> = {};
    if (e.kind === 'pre-tool') {
      if (d.deny !== undefined) Object.assign(out, { decision: 'deny', reason: d.deny });
      else if (d.updatedInput) out.hookSpecificOutput = { hookEventName: e.name, tool_input: d.updatedInput };
      // BeforeTool has no model-visible context: a warning goes to the person.
      if ((d.notice ?? d.context) && d.deny === undefined) out.systemMessage = d.notice ?? d.context;
    } else if (e.kind === 'stop') {
      if (d.followUp) Object.assign(out, { decision: 'deny', reason: d.followUp });
    } else if (e.kind === 'pre-compact') {
      if (d.context) out.systemMessage = d.context;
    } else if (d.context && (e.kind === 'post-tool' || e.kind === 'session-start')) {
      out.hookSpecificOutput = { hookEventName: e.name, additionalContext: d.context };
      if (d.notice) out.systemMessage = d.notice;
    }
    return Object.keys(out).length ? JSON.stringify(out) : null;
  },
};
