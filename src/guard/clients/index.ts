// Tells the client apart by its payload (SPEC 6) and hands back its adapter.
import { str, type ClientAdapter } from '../event';
import { claude } from './claude';
import { codex } from './codex';
import { cursor } from './cursor';
import { gemini } from './gemini';

const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'AfterAgent', 'BeforeAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'PreCompress', 'SessionEnd', 'Notification']);
const GEMINI_TOOLS = new Set(['write_file', 'replace', 'run_shell_command', 'read_file', 'glob', 'search_file_content', 'list_directory']);

export function detectClient(p: Record<string, unknown>): ClientAdapter {
  const name = str(p.hook_event_name) ?? '';
  if (/^[a-z]/.test(name) && (p.conversation_id !== undefined || p.generation_id !== undefined || p.workspace_roots !== undefined)) return cursor;
  if (GEMINI_EVENTS.has(name) || GEMINI_TOOLS.has(str(p.tool_name) ?? '') || (p.timestamp !== undefined && p.turn_id === undefined && name === 'SessionStart')) {
    return gemini;
  }
  if (p.turn_id !== undefined || str(p.tool_name) === 'apply_patch') return codex;
  return claude;
}
