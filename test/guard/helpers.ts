// Drives `git handoff guard` with the client payload fixtures, rewritten to point into a temporary repository.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeRepo, ROOT, type TestRepo } from '../helpers/repo';

export const FIXTURES = path.join(ROOT, 'fixtures', 'hook-payloads');
export const ME = 'me-5f0c6a52-aaaa';
export const OTHER = 'other-9b1e77d0-bbbb';

/** A fixture with its example project path replaced by the repository, the session set, and fields overridden. */
export function payload(repo: TestRepo, fixture: string, over: Record<string, unknown> = {}, session: string | null = ME): Record<string, unknown> {
  const text = readFileSync(path.join(FIXTURES, fixture), 'utf8').split('/home/user/my-project').join(repo.dir);
  const p = JSON.parse(text);
  if (session !== null) {
    if ('conversation_id' in p) p.conversation_id = session;
    else p.session_id = session;
  }
  return { ...p, ...over };
}

export interface GuardRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** the parsed answer, or null when the guard printed nothing */
  answer: any;
}

export async function guard(repo: TestRepo, p: unknown, env: Record<string, string | undefined> = {}): Promise<GuardRun> {
  const input = typeof p === 'string' ? p : JSON.stringify(p);
  const r = await repo.cli(['guard'], { input, env });
  const stdout = String(r.stdout).trim();
  // a plain-text answer (Claude Code's PreCompact) is kept as its text
  return { exitCode: r.exitCode ?? -1, stdout, stderr: String(r.stderr), answer: stdout ? (stdout.startsWith('{') ? JSON.parse(stdout) : stdout) : null };
}

/**
 * A Write tool call as the client makes it: the before-tool hook records the intent, then the tool writes the file
 * (its content kept when it is already there), so the ledger counts it (a claim records what a call changed).
 */
export async function wroteFile(repo: TestRepo, file: string, session: string | null = ME, env: Record<string, string | undefined> = {}, over: Record<string, unknown> = {}): Promise<GuardRun> {
  const abs = path.isAbsolute(file) ? file : path.join(repo.dir, file);
  const content = existsSync(abs) ? readFileSync(abs) : Buffer.from('x\n');
  const r = await guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: abs, content: content.toString('utf8') }, ...over }, session), env);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  return r;
}

/** The reason of a refusal in any client's shape, or null when it allowed. */
export function denial(r: GuardRun): string | null {
  const a = r.answer;
  if (!a) return null;
  if (a.hookSpecificOutput?.permissionDecision === 'deny') return a.hookSpecificOutput.permissionDecisionReason;
  if (a.decision === 'deny' || a.decision === 'block') return a.reason;
  if (a.permission === 'deny') return a.agent_message;
  return null;
}

/** Writes a handoff as `session` through the real CLI. */
export async function writeHandoff(repo: TestRepo, topic: string, body: string, session: string): Promise<void> {
  const r = await repo.cli(['write', topic, '-m', body], { env: { GIT_HANDOFF_SESSION: session } });
  if (r.exitCode !== 0) throw new Error(`write failed: ${r.stderr}`);
}

export const readLog = (repo: TestRepo) => {
  try {
    return readFileSync(path.join(repo.dir, '.git', 'handoff', 'guard.log'), 'utf8');
  } catch {
    return '';
  }
};

/** The real guard on a Bash call in Claude Code's shape. */
export const bash = (repo: TestRepo, command: string, env: Record<string, string> = {}) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }), env);

/** The real guard on a Write call in Claude Code's shape. */
export const writeTool = (repo: TestRepo, file: string, content: string) =>
  guard(repo, payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content } }));

/** A repository with a commit where another session's handoff auth-refactor is. */
export async function withHandoff(): Promise<TestRepo> {
  const repo = makeRepo({ commit: true });
  await writeHandoff(repo, 'auth-refactor', 'their note', OTHER);
  return repo;
}

/** The real guard on a shell call in `fixture`'s shape (Claude Code's Bash unless named), its other tool_input kept. */
export function shellCall(repo: TestRepo, command: string, env: Record<string, string | undefined> = {}, fixture = 'claude-code/pre-tool-use-bash.json') {
  const p: any = payload(repo, fixture);
  p.tool_input = { ...p.tool_input, command };
  return guard(repo, p, env);
}
