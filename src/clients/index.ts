// Tells the client apart (SPEC 6): by the `--client=<id>` the wiring states, else by its payload; hands back its adapter.
import { str, type ClientAdapter, type GuardClient } from '../guard/event';
import { claude } from './claude';
import { clientName } from './names';
import { codex } from './codex';
import { copilot, copilotClaude, isCopilotClaudePayload } from './copilot';
import { opencode } from './opencode';
import { qwen } from './qwen';
import { cursor } from './cursor';
import { gemini } from './gemini';

const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'AfterAgent', 'BeforeAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress', 'Notification']);
const GEMINI_TOOLS = new Set(['write_file', 'replace', 'run_shell_command', 'read_file', 'glob', 'search_file_content', 'list_directory']);

const ADAPTERS: Record<GuardClient, ClientAdapter> = { 'claude-code': claude, 'gemini-cli': gemini, codex, cursor, copilot, opencode, 'qwen-code': qwen };

/**
 * The client the wiring names after `guard` (`git-handoff guard --client=codex`, or `--client codex`), or null when
 * none or an unknown one is named. Only the arguments after `guard` are read, so a launcher's own path cannot count.
 */
export function namedClient(argv: readonly string[] = process.argv): GuardClient | null {
  const at = argv.indexOf('guard');
  const args = at < 0 ? [] : argv.slice(at + 1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].startsWith('--client=') ? args[i].slice('--client='.length) : args[i] === '--client' ? args[i + 1] : undefined;
    if (v !== undefined) return clientName(v);
  }
  return null;
}

/** The adapter for a payload: the client the wiring names (it cannot be mistaken), else the payload's shape. */
export function detectClient(p: Record<string, unknown>, named: GuardClient | null = namedClient()): ClientAdapter {
  // Copilot CLI runs the Claude Code wiring too: its payloads there are Copilot's (its session, its argument names)
  if ((named === null || named === 'claude-code') && isCopilotClaudePayload(p)) return copilotClaude;
  if (named) return ADAPTERS[named];
  // Qwen Code gives its hooks its session id (a Gemini CLI fork: its payloads could pass for Gemini's)
  if (typeof p.session_id === 'string' && process.env.QWEN_CODE_SESSION_ID === p.session_id) return qwen;
  const name = str(p.hook_event_name) ?? '';
  // Copilot CLI's native payloads name no event and are camelCase throughout
  if (p.hook_event_name === undefined && typeof p.sessionId === 'string') return copilot;
  if (/^[a-z]/.test(name) && (p.conversation_id !== undefined || p.generation_id !== undefined || p.workspace_roots !== undefined)) return cursor;
  if (GEMINI_EVENTS.has(name) || GEMINI_TOOLS.has(str(p.tool_name) ?? '') || (p.timestamp !== undefined && p.turn_id === undefined && (name === 'SessionStart' || name === 'SessionEnd'))) {
    return gemini;
  }
  // Codex's SessionStart has no turn_id; its transcript is always a rollout-*.jsonl (observed with 0.169.0).
  if (p.turn_id !== undefined || str(p.tool_name) === 'apply_patch' || /(^|[\\/])rollout-[^\\/]*\.jsonl$/.test(str(p.transcript_path) ?? '')) return codex;
  return claude;
}
