// Qwen Code (observed with 0.24.4, ../shared/tools/qwen-offline): Claude Code's hook format read from
// `.qwen/settings.json` (never `.claude/settings.json`), with Qwen's own tool names and snake_case inputs
// (`run_shell_command {command}`, `write_file {file_path, content}`, `edit {file_path, old_string, new_string}`);
// it obeys Claude Code's hookSpecificOutput answers (a flat permissionDecision is ignored). Hooks and the shell
// get QWEN_CODE_SESSION_ID. Folder trust is off by default; when the user turns it on, an untrusted folder runs
// no hook at all.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { str, type ClientAdapter } from '../guard/event';
import { KINDS, renderClaudeLike } from './claude';
import { parseCommonPayload } from './common';
import type { Wiring } from './wiring';

export const wiring: Wiring = {
  client: 'qwen-code',
  format: 'settings',
  settings: '.qwen/settings.json',
  // PreToolUse's additionalContext reaches the model in Qwen Code, so no PostToolUse; matchers are regexes
  events: {
    PreToolUse: '^(run_shell_command|write_file|edit|replace|notebook_edit)$',
    SessionStart: undefined,
    Stop: undefined,
    PreCompact: undefined,
    // wired for when it fires (it did not in a `qwen -p` turn with 0.24.4)
    SessionEnd: undefined,
  },
  // seconds (a value of 1000 or more is read as milliseconds, with a warning)
  timeout: 30,
  named: true,
  notes: 'QWEN.md',
  skills: null,
};


// Qwen's tool names onto Claude Code's (run_shell_command and write_file are read as they are)
const TOOLS: Record<string, string> = { edit: 'Edit', notebook_edit: 'NotebookEdit' };

export const qwen: ClientAdapter = {
  client: 'qwen-code',
  parse(p) {
    const tool = str(p.tool_name);
    const mapped = tool !== null && Object.hasOwn(TOOLS, tool) ? { ...p, tool_name: TOOLS[tool] } : p;
    return { ...parseCommonPayload('qwen-code', KINDS, mapped, str(p.source)), tool };
  },
  render: renderClaudeLike,
};

/** Qwen Code's folder-trust gate for a repository: off (hooks run), trusted, or untrusted (no hook runs). */
export function qwenTrust(worktree: string, env: NodeJS.ProcessEnv = process.env): { state: 'off' | 'trusted' | 'untrusted'; settings: string; trustFile: string } {
  const dir = path.join(env.HOME || homedir(), '.qwen');
  const settings = path.join(dir, 'settings.json');
  const trustFile = path.join(dir, 'trustedFolders.json');
  const read = (f: string): any => {
    try {
      return JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      return null;
    }
  };
  const enabled = read(settings)?.security?.folderTrust?.enabled === true;
  if (!enabled) return { state: 'off', settings, trustFile };
  const rules: Record<string, unknown> = existsSync(trustFile) ? (read(trustFile) ?? {}) : {};
  // as Qwen Code resolves it: the deepest rule covering the folder wins (TRUST_PARENT covers the rule's parent),
  // and at equal depth DO_NOT_TRUST
  const here = path.resolve(worktree);
  let best: { depth: number; trusted: boolean } | null = null;
  for (const [p, level] of Object.entries(rules)) {
    const root = level === 'TRUST_PARENT' ? path.dirname(path.resolve(p)) : path.resolve(p);
    const rel = path.relative(root, here);
    if (rel.startsWith('..') || path.isAbsolute(rel) || (level !== 'TRUST_FOLDER' && level !== 'TRUST_PARENT' && level !== 'DO_NOT_TRUST')) continue;
    const depth = root.split(path.sep).filter(Boolean).length;
    const trusted = level !== 'DO_NOT_TRUST';
    if (!best || depth > best.depth || (depth === best.depth && !trusted)) best = { depth, trusted };
  }
  if (best?.trusted) return { state: 'trusted', settings, trustFile };
  return { state: 'untrusted', settings, trustFile };
}
