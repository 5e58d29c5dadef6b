// Gemini CLI: BeforeTool/AfterTool/SessionStart/AfterAgent/PreCompress; answers with top-level decision/reason,
// a rewritten input in hookSpecificOutput.tool_input, context in hookSpecificOutput.additionalContext.
import { commonToolAction, obj, own, str, type ClientAdapter, type EventKind } from '../event';

const KINDS: Record<string, EventKind> = {
  BeforeTool: 'pre-tool',
  AfterTool: 'post-tool',
  SessionStart: 'session-start',
  AfterAgent: 'stop',
  PreCompress: 'pre-compact',
};

export const gemini: ClientAdapter = {
  client: 'gemini-cli',
  parse(p) {
    const name = str(p.hook_event_name) ?? '';
    const cwd = str(p.cwd) ?? process.cwd();
    const tool = str(p.tool_name);
    const toolInput = obj(p.tool_input);
    return {
      client: 'gemini-cli',
      kind: own(KINDS, name) ?? 'other',
      name,
      session: str(p.session_id),
      agentId: str(p.agent_id),
      cwd,
      tool,
      action: commonToolAction(tool, toolInput, cwd),
      toolInput,
      source: str(p.source) ?? str(p.trigger),
      stopHookActive: p.stop_hook_active === true,
    };
  },
  render(e, d) {
    const out: Record<string, unknown> = {};
    if (e.kind === 'pre-tool') {
      if (d.deny !== undefined) Object.assign(out, { decision: 'deny', reason: d.deny });
      else if (d.updatedInput) out.hookSpecificOutput = { hookEventName: e.name, tool_input: d.updatedInput };
      // BeforeTool has no model-visible context: a warning goes to the person.
      if (d.context && d.deny === undefined) out.systemMessage = d.context;
    } else if (e.kind === 'stop') {
      if (d.followUp) Object.assign(out, { decision: 'deny', reason: d.followUp });
    } else if (e.kind === 'pre-compact') {
      if (d.context) out.systemMessage = d.context;
    } else if (d.context && (e.kind === 'post-tool' || e.kind === 'session-start')) {
      out.hookSpecificOutput = { hookEventName: e.name, additionalContext: d.context };
    }
    return Object.keys(out).length ? JSON.stringify(out) : null;
  },
};
