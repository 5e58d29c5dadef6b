// Claims read what a call writes as the protected-file rules read it (SPEC 10, src/guard/effect.ts): with another
// session's claim live on src/auth/, every tool that writes there is refused — an MCP server's write, edit and move
// in each client's shape, code given to python3 and node — and a call whose writes the guard cannot tell (xargs, a
// target built by an expansion) is refused naming the holder; reads, writes elsewhere and code that writes nothing pass.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, type TestRepo } from '../helpers/repo';
import { denial, guard, ME, OTHER, payload } from './helpers';

const FIXTURE: Record<string, string> = {
  'claude-code': 'claude-code/pre-tool-use-write.json',
  codex: 'codex/pre-tool-use-bash.json',
  'qwen-code': 'qwen-code/real-pre-tool-use-write-file.json',
  'gemini-cli': 'gemini-cli/before-tool-write-file.json',
};

const call = (repo: TestRepo, client: string, tool: string, input: Record<string, unknown>, session = ME) => payload(repo, FIXTURE[client], { tool_name: tool, tool_input: input }, session);
const shell = (repo: TestRepo, command: string, session = ME) => payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } }, session);
const contextOf = (a: any): string => a?.hookSpecificOutput?.additionalContext ?? '';

/** A repository where session OTHER claims src/auth/ and has an uncommitted edit of src/auth/login.ts. */
async function claimed(): Promise<{ repo: TestRepo; login: () => string }> {
  const repo = makeRepo({ commit: true });
  repo.write('src/auth/login.ts', 'export const login = 1;\n');
  repo.write('notes.txt', 'notes\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-q', '-m', 'base']);
  const r = await repo.cli(['claim', 'src/auth/', '--session', OTHER, '--note', 'moving login to OAuth']);
  if (r.exitCode !== 0) throw new Error(`claim failed: ${r.stderr}`);
  repo.write('src/auth/login.ts', 'export const login = 2; // OAuth, in progress\n');
  return { repo, login: () => readFileSync(path.join(repo.dir, 'src/auth/login.ts'), 'utf8') };
}

describe("another session's claim holds against every tool that writes the claimed path", () => {
  it('MCP write, edit and move tools (Claude Code, Codex, Qwen Code, Gemini CLI shapes) and interpreter code: refused, naming the holder', async () => {
    const { repo, login } = await claimed();
    const before = login();
    const abs = path.join(repo.dir, 'src/auth/login.ts');
    const calls: Array<[string, Record<string, unknown>]> = [
      ['claude-code mcp write_file', call(repo, 'claude-code', 'mcp__filesystem__write_file', { path: abs, content: 'x' })],
      ['claude-code mcp edit_file', call(repo, 'claude-code', 'mcp__filesystem__edit_file', { path: 'src/auth/login.ts', edits: [{ oldText: 'login = 2', newText: 'login = 3' }] })],
      ['claude-code mcp move_file (source claimed)', call(repo, 'claude-code', 'mcp__filesystem__move_file', { source: abs, destination: path.join(repo.dir, 'old-login.ts') })],
      ['claude-code mcp move_file (destination claimed)', call(repo, 'claude-code', 'mcp__filesystem__move_file', { source: path.join(repo.dir, 'notes.txt'), destination: abs })],
      ['codex mcp write_file', call(repo, 'codex', 'mcp__filesystem__write_file', { path: abs, content: 'x' })],
      ['codex mcp move_file', call(repo, 'codex', 'mcp__filesystem__move_file', { source: 'notes.txt', destination: 'src/auth/login.ts' })],
      ['qwen-code mcp edit_file', call(repo, 'qwen-code', 'mcp__filesystem__edit_file', { path: abs, edits: [{ oldText: 'login = 2', newText: 'login = 3' }] })],
      ['gemini-cli mcp write_file', call(repo, 'gemini-cli', 'mcp_filesystem_write_file', { path: abs, content: 'x' })],
      ['python3 -c', shell(repo, `python3 -c "open('src/auth/login.ts','w').write('x')"`)],
      ['node -e', shell(repo, `node -e "require('fs').writeFileSync('src/auth/login.ts','x')"`)],
      ['node -e, glued', shell(repo, `node -e "require('fs').writeFileSync('src/auth/lo' + 'gin.ts','x')"`)],
      ['python3 -c, joined', shell(repo, `python3 -c "import os; open(os.path.join('src', 'auth', 'login.ts'), 'w').write('x')"`)],
    ];
    for (const [what, p] of calls) {
      const why = denial(await guard(repo, p));
      expect(why, what).toContain(`src/auth/login.ts is claimed by session ${OTHER}`);
      expect(why, what).toContain('"moving login to OAuth"');
      // interpreter code's other strings are paths it may write too (the glued one's parts)
      expect(why, what).toMatch(/git handoff claim (\S+ )*src\/auth\/login\.ts( \S+)* --take-over/);
      expect(login(), what).toBe(before);
    }
  }, 120_000);

  it('a directory removed whole that holds a claimed path is refused, naming the claim', async () => {
    const { repo, login } = await claimed();
    const before = login();
    for (const command of ['rm -rf src', 'rm -r src/auth', 'mv src /tmp/elsewhere', `python3 -c "import shutil; shutil.rmtree('src')"`, `node -e "require('fs').rmSync('src', { recursive: true })"`]) {
      const why = denial(await guard(repo, shell(repo, command)));
      expect(why, command).toContain(`src/auth/ is claimed by session ${OTHER}`);
      expect(why, command).toContain('git handoff claim src/auth/ --take-over');
      expect(login(), command).toBe(before);
    }
    for (const command of ['rm -rf docs', 'rm -rf src/db', `python3 -c "open('src/' + 'db.ts', 'w').write('x')"`, 'mkdir -p src']) expect(denial(await guard(repo, shell(repo, command))), command).toBeNull();
  }, 120_000);

  it('a call whose writes the guard cannot tell is refused while another session claims paths on the branch (told with tell); the holder and a branch without claims pass', async () => {
    const { repo, login } = await claimed();
    const before = login();
    for (const [command, cause] of [
      ['cat list.txt | xargs rm', '`xargs rm` takes its file names from its input'],
      ['echo x > "$OUT"', '`$OUT` is built by an expansion'],
    ]) {
      const why = denial(await guard(repo, shell(repo, command)));
      expect(why, command).toContain('the guard cannot tell what this call writes');
      expect(why, command).toContain(cause);
      expect(why, command).toContain(`src/auth/ is claimed by session ${OTHER}`);
      expect(why, command).toContain('Name the files it writes plainly');
      expect(login()).toBe(before);
      // the holder's own call is its own business
      expect(denial(await guard(repo, shell(repo, command, OTHER))), command).toBeNull();
    }
    repo.git(['config', 'handoff.claims', 'tell']);
    const told = await guard(repo, shell(repo, 'cat list.txt | xargs rm'));
    expect(denial(told)).toBeNull();
    expect(contextOf(told.answer)).toContain('the guard cannot tell what this call writes');
    expect(contextOf(told.answer)).toContain(`src/auth/ is claimed by session ${OTHER}`);
    repo.git(['config', '--unset', 'handoff.claims']);
    expect((await repo.cli(['release', 'src/auth/', '--session', OTHER])).exitCode).toBe(0);
    const free = await guard(repo, shell(repo, 'cat list.txt | xargs rm'));
    expect(denial(free)).toBeNull();
    expect(contextOf(free.answer)).not.toContain('claimed');
  }, 120_000);

  it('reads, writes outside the claim and code that writes nothing stay allowed and silent', async () => {
    const { repo } = await claimed();
    const abs = path.join(repo.dir, 'src/auth/login.ts');
    const calls: Array<[string, Record<string, unknown>]> = [
      ['mcp read_file of the claimed file', call(repo, 'claude-code', 'mcp__filesystem__read_file', { path: abs })],
      ['gemini-cli mcp read_file', call(repo, 'gemini-cli', 'mcp_filesystem_read_file', { path: abs })],
      ['mcp write_file elsewhere', call(repo, 'claude-code', 'mcp__filesystem__write_file', { path: path.join(repo.dir, 'src/db.ts'), content: 'x' })],
      ['codex mcp move_file elsewhere', call(repo, 'codex', 'mcp__filesystem__move_file', { source: 'notes.txt', destination: 'docs/notes.txt' })],
      ['python3 -c print', shell(repo, `python3 -c "print(1)"`)],
      ['node -e writing elsewhere', shell(repo, `node -e "require('fs').writeFileSync('src/db.ts','x')"`)],
      ['Write elsewhere', payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: path.join(repo.dir, 'src/db.ts'), content: 'x\n' } })],
      ['shell write elsewhere', shell(repo, 'echo hi > src/db.ts')],
    ];
    for (const [what, p] of calls) {
      const r = await guard(repo, p);
      expect(denial(r), what).toBeNull();
      expect(JSON.stringify(r.answer ?? {}), what).not.toContain('claimed by');
    }
  }, 120_000);
});
