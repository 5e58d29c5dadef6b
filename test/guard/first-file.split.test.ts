// The guard's first file (dist/guard.cjs) answers a tool call no rule applies to without loading the full guard
// (dist/fast.cjs), and the bundles' V8 code cache never changes an answer. Structural checks, no timings: a copy
// of the launcher whose fast.cjs records being loaded before handing over to the real one.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { quickDescribe, slowDescribe } from '../helpers/sets';
import { makeRepo, ROOT, tempDir, type TestRepo } from '../helpers/repo';
import { foreignWorld, verdict } from './world';
import { ME, OTHER, payload, readLog } from './helpers';

/** bin/ and dist/ copied, with a dist/fast.cjs that appends a line to `marker` when loaded. */
function recordingCopy(): { bin: string; marker: string } {
  const root = tempDir();
  mkdirSync(path.join(root, 'bin'));
  mkdirSync(path.join(root, 'dist'));
  copyFileSync(path.join(ROOT, 'bin', 'git-handoff'), path.join(root, 'bin', 'git-handoff'));
  for (const f of ['guard.cjs', 'first.cjs', 'load.cjs']) copyFileSync(path.join(ROOT, 'dist', f), path.join(root, 'dist', f));
  const marker = path.join(root, 'fast-loaded');
  writeFileSync(
    path.join(root, 'dist', 'fast.cjs'),
    `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'loaded\\n');\nmodule.exports = require(${JSON.stringify(path.join(ROOT, 'dist', 'fast.cjs'))});\n`,
  );
  return { bin: path.join(root, 'bin', 'git-handoff'), marker };
}

const run = (repo: TestRepo, bin: string, p: unknown, env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [bin, 'guard'], { cwd: repo.dir, env: { ...repo.env, ...env }, input: JSON.stringify(p), encoding: 'utf8' });

const loads = (marker: string) => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);

quickDescribe('the guard\'s first file', () => {
  it('answers a Read and a Bash `npm test` alone; anything a rule may apply to loads the full guard', () => {
    const repo = makeRepo({ commit: true });
    const { bin, marker } = recordingCopy();
    // A session's first call is the full guard's (it notes the session and takes the worktree lease).
    expect(run(repo, bin, payload(repo, 'claude-code/pre-tool-use-read.json'))).toBe('');
    expect(loads(marker)).toBe(1);
    for (const p of [
      payload(repo, 'claude-code/pre-tool-use-read.json'),
      payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'npm test' } }),
      payload(repo, 'gemini-cli/before-tool-shell.json', { tool_input: { command: 'ls -la && npm test' } }),
    ]) {
      expect(run(repo, bin, p)).toBe('');
    }
    expect(loads(marker)).toBe(1);

    // A raw update-ref of a handoff ref, one plain command, is refused by the first file itself (the rule reads
    // only the command), with the full guard's very answer; the same command after another loads the full guard.
    const bash = (command: string) => payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } });
    const denied = run(repo, bin, bash('git update-ref -d refs/handoffs/main/auth-refactor'));
    expect(JSON.parse(denied).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(loads(marker)).toBe(1);
    const full = run(repo, bin, bash('true; git update-ref -d refs/handoffs/main/auth-refactor'));
    expect(loads(marker)).toBe(2);
    expect(full).toBe(denied);
    // with the bypass the full guard decides (and audits)
    run(repo, bin, bash('git update-ref -d refs/handoffs/main/auth-refactor'), { GIT_HANDOFF_BYPASS: '1' });
    expect(loads(marker)).toBe(3);
    // A Write to a protected file: the full guard answers.
    const own = payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/memory/handoff-main-auth-refactor.md`, content: '# no marker\n' } });
    expect(JSON.parse(run(repo, bin, own)).hookSpecificOutput.permissionDecisionReason).toContain(`<!-- claude-session: ${ME} -->`);
    expect(loads(marker)).toBe(4);
    // Bad input goes to the full guard too (it logs).
    expect(run(repo, bin, 'not json')).toBe('');
    expect(loads(marker)).toBe(5);

    // Claude Code names its process (CLAUDE_PID): the first sight of a session is the full guard's (lineage),
    // after that a Read is answered alone again.
    const read = payload(repo, 'claude-code/pre-tool-use-read.json', {}, 'fresh-5f0c-cccc');
    // (and it is told, once, that the first session holds this worktree)
    expect(run(repo, bin, read, { CLAUDE_PID: String(process.pid) })).toContain('another live session');
    expect(loads(marker)).toBe(6);
    expect(run(repo, bin, read, { CLAUDE_PID: String(process.pid) })).toBe('');
    expect(loads(marker)).toBe(6);
  });

  it("answers Copilot CLI's native payloads (no hook_event_name, by design) as every client's, and logs no bad input", () => {
    const repo = makeRepo({ commit: true });
    const { bin, marker } = recordingCopy();
    const copilot = (command: string) => ({ ...payload(repo, 'copilot/real-pre-tool-use-bash.json', { sessionId: ME }, null), toolArgs: { command, description: 'd' } });
    // the session's first call is the full guard's (first sight)
    expect(run(repo, bin, copilot('npm test'), {})).toBe('');
    expect(loads(marker)).toBe(1);
    expect(run(repo, bin, copilot('ls -la && npm test'))).toBe('');
    expect(loads(marker)).toBe(1);
    const refused = run(repo, bin, copilot('git update-ref -d refs/handoffs/main/auth-refactor'));
    expect(JSON.parse(refused).permissionDecision).toBe('deny');
    expect(loads(marker)).toBe(1);
    expect(readLog(repo)).not.toMatch(/bad input/);
  });

  it('gives the same answers with a code cache, without one, and over a corrupt one it then replaces', () => {
    const repo = makeRepo({ commit: true });
    // two commands: the full guard's to decide (one plain update-ref the first file refuses itself)
    const probe = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'true; git update-ref -d refs/handoffs/main/auth-refactor' } });
    const cacheDir = path.join(repo.home, '.cache', 'git-handoff', 'v8');
    const bin = path.join(ROOT, 'bin', 'git-handoff');
    const first = run(repo, bin, probe);
    expect(JSON.parse(first).hookSpecificOutput.permissionDecision).toBe('deny');
    const caches = readdirSync(cacheDir).filter((f) => f.startsWith('fast.cjs-') && f.endsWith('.bin'));
    expect(caches).toHaveLength(1);
    expect(run(repo, bin, probe)).toBe(first);
    expect(run(repo, bin, probe, { GIT_HANDOFF_CODE_CACHE: '0' })).toBe(first);
    writeFileSync(path.join(cacheDir, caches[0]), 'not a code cache');
    expect(run(repo, bin, probe)).toBe(first);
    expect(readFileSync(path.join(cacheDir, caches[0])).length).toBeGreaterThan(1000);
    // A cache others could have written is not read (and is replaced by one only this user can write).
    chmodSync(path.join(cacheDir, caches[0]), 0o666);
    expect(run(repo, bin, probe)).toBe(first);
    expect(statSync(path.join(cacheDir, caches[0])).mode & 0o077).toBe(0);
    // The first look goes through a cache too, one per kind of payload.
    const firstCaches = () => readdirSync(cacheDir).filter((f) => f.startsWith('first.cjs-'));
    expect(firstCaches().filter((f) => f.endsWith('-first-shell.bin'))).toHaveLength(1);
    const plain = payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref -d refs/handoffs/main/auth-refactor' } });
    // (a session seen before: a Read notes it)
    expect(run(repo, bin, payload(repo, 'claude-code/pre-tool-use-read.json'))).toBe('');
    const refused = run(repo, bin, plain);
    expect(JSON.parse(refused).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(firstCaches().filter((f) => f.endsWith('-first-git.bin'))).toHaveLength(1);
    expect(run(repo, bin, plain)).toBe(refused);
    expect(run(repo, bin, plain, { GIT_HANDOFF_CODE_CACHE: '0' })).toBe(refused);
    // The CLI bundle goes through the same cache.
    expect(execFileSync(process.execPath, [bin, 'list'], { cwd: repo.dir, env: repo.env, encoding: 'utf8' })).toContain('no handoffs');
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('cli.cjs-'))).toHaveLength(1);
  });
});

slowDescribe('a git command the first look never answers', () => {
  it('goes to the full guard without the first look, with the answer the way through the first look gives', async () => {
    // another session is editing its committed handoff note: some of these verbs would throw its edit away
    const repo = await foreignWorld();
    repo.commit(`their note\n\nClaude-Session-Id: ${OTHER}`);
    repo.write('memory/handoff-main-auth-refactor.md', `<!-- claude-session: ${OTHER} -->\ntheir note, edited\n`);
    const bin = path.join(ROOT, 'bin', 'git-handoff');
    const trace = path.join(tempDir(), 'trace');
    /** The answer to a Bash call, and the bundles the run loaded (from its trace). */
    const call = (text: string) => {
      rmSync(trace, { force: true });
      const out = execFileSync(process.execPath, [bin, 'guard'], { cwd: repo.dir, env: { ...repo.env, GIT_HANDOFF_SESSION: ME, GIT_HANDOFF_TRACE: trace }, input: text, encoding: 'utf8' });
      const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.phase === 'load').map((e) => e.detail);
      return { out, loaded };
    };
    const bash = (command: string) => JSON.stringify(payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command, description: 'run' } }));
    // the session's first call notes it (the full guard's either way)
    call(bash('npm test'));
    const answers: Record<string, string> = {};
    for (const command of ['git commit -m x', 'git add -A', 'git stash', 'git reset --hard', 'git checkout -f HEAD', 'git clean -fdx', 'git restore memory', 'git switch -c feature']) {
      const direct = call(bash(command));
      expect(direct.loaded, command).toEqual(['fast.cjs']);
      // the same payload with its first letter escaped (\u0067 is g): the same call, which the glance does not see
      const escaped = call(bash(command).replace(`"command":"git`, '"command":"\\u0067it'));
      expect(escaped.loaded, command).toEqual(['first.cjs', 'fast.cjs']);
      expect(direct.out, command).toBe(escaped.out);
      answers[command] = direct.out ? verdict(direct.out) : 'allow';
    }
    expect(answers).toEqual({
      'git commit -m x': 'allow',
      'git add -A': 'allow',
      'git stash': 'deny',
      'git reset --hard': 'deny',
      'git checkout -f HEAD': 'deny',
      'git clean -fdx': 'allow',
      'git restore memory': 'deny',
      'git switch -c feature': 'allow',
    });
    // a ref move the first look refuses itself still goes through it
    expect(call(bash('git update-ref -d refs/handoffs/main/auth-refactor')).loaded).toEqual(['first.cjs']);
  });
});

quickDescribe('the bundles', () => {
  it('load through the code cache as require loads them, a file that is not ASCII too (read as UTF-8, not copied as Latin-1)', () => {
    const dir = tempDir();
    const cache = tempDir();
    // a large bundle and a small one
    writeFileSync(path.join(dir, 'secrets.cjs'), `${'// padding\n'.repeat(30_000)}module.exports = { text: "caf\u00e9 \u2014 na\u00efve \u2026", plain: "ascii" };\n`);
    writeFileSync(path.join(dir, 'first.cjs'), 'module.exports = { text: "caf\u00e9 \u2014 na\u00efve \u2026", plain: "ascii" };\n');
    const load = (file: string) =>
      execFileSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(path.join(ROOT, 'dist', 'load.cjs'))}).loadBundle(${JSON.stringify(dir)}, ${JSON.stringify(file)}, 'test')))`], {
        env: { ...process.env, XDG_CACHE_HOME: cache, GIT_HANDOFF_CODE_CACHE: '' },
        encoding: 'utf8',
      });
    const want = { text: 'caf\u00e9 \u2014 na\u00efve \u2026', plain: 'ascii' };
    // the first run writes the cache, the second reads it
    for (const file of ['secrets.cjs', 'first.cjs']) {
      expect(JSON.parse(load(file))).toEqual(want);
      expect(readdirSync(path.join(cache, 'git-handoff', 'v8')).filter((f) => f.startsWith(`${file}-`))).toHaveLength(1);
      expect(JSON.parse(load(file))).toEqual(want);
    }
  });

  it('are ASCII: node reads them as one-byte strings (one non-ASCII character makes a 260 KB bundle a two-byte string, decoded at every load)', () => {
    for (const f of readdirSync(path.join(ROOT, 'dist')).filter((f) => f.endsWith('.cjs'))) {
      expect(/[^\x00-\x7f]/.test(readFileSync(path.join(ROOT, 'dist', f), 'latin1')), f).toBe(false);
    }
  });
});

slowDescribe('the first file on a Write or Edit of a protected handoff file', () => {
  const full = (repo: TestRepo, p: unknown, env: Record<string, string> = {}) =>
    execFileSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(ROOT, 'dist', 'fast.cjs'))}).guard()`], {
      cwd: repo.dir,
      env: { ...repo.env, ...env },
      input: JSON.stringify(p),
      encoding: 'utf8',
    });
  const ours = `<!-- claude-session: ${ME} -->`;
  const theirs = '<!-- claude-session: other-9b1e77d0-bbbb -->';

  it('answers as the full guard does, and alone only where the file rule allows without a word', () => {
    const repo = makeRepo({ commit: true });
    const { bin, marker } = recordingCopy();
    mkdirSync(path.join(repo.dir, 'memory'));
    mkdirSync(path.join(repo.dir, 'alone', 'memory'), { recursive: true });
    mkdirSync(path.join(repo.dir, 'notes'));
    writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-auth-refactor.md'), `${ours}\n# auth-refactor\n\nGoal: the old notes.\n`);
    writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-login-loop.md'), `${theirs}\n# login-loop\n`);
    writeFileSync(path.join(repo.dir, 'memory', 'handoff-main-old-notes.md'), '# legacy, no marker\n');
    repo.git(['config', 'handoff.protect', 'notes/*.md']);
    const mem = (f: string) => `${repo.dir}/memory/${f}`;
    const write = (file: string, content: string, over: Record<string, unknown> = {}) =>
      payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: file, content }, ...over });
    const edit = (file: string, oldS: string, newS: string) => payload(repo, 'claude-code/pre-tool-use-edit.json', { tool_input: { file_path: file, old_string: oldS, new_string: newS } });
    const multi = (file: string, edits: Array<[string, string]>) =>
      payload(repo, 'claude-code/pre-tool-use-multiedit.json', { tool_input: { file_path: file, edits: edits.map(([o, n]) => ({ old_string: o, new_string: n })) } });
    const body = `${ours}\n# a note\n`;
    // the session's first call is the full guard's (it notes the session and takes the lease)
    run(repo, bin, payload(repo, 'claude-code/pre-tool-use-read.json'));
    // [payload, answered by the first file alone, what the answer is]
    const cases: Array<[string, Record<string, unknown>, boolean, 'allow' | 'deny' | 'context', Record<string, string>?]> = [
      ['own marker, new file, no sibling', write(`${repo.dir}/alone/memory/handoff-main-cache-layer.md`, body), true, 'allow'],
      ['own marker, own existing file', write(mem('handoff-main-auth-refactor.md'), body), true, 'allow'],
      ['own marker, own file, relative path', write('memory/handoff-main-auth-refactor.md', body), true, 'allow'],
      ['own marker, new file beside others (overlap check)', write(mem('handoff-feat-login-loop-retry.md'), body), false, 'context'],
      ['own marker, new file sharing one token only', write(mem('handoff-main-auth-refactor-fix.md'), body), true, 'allow'],
      ['own marker, new file beside others, no overlap', write(mem('handoff-main-cache-layer.md'), body), true, 'allow'],
      ['foreign marker', write(mem('handoff-main-auth-refactor.md'), `${theirs}\n# x\n`), false, 'deny'],
      ['no marker', write(mem('handoff-main-auth-refactor.md'), '# x\n'), false, 'deny'],
      ['marker not on line 1', write(`${repo.dir}/alone/memory/handoff-main-cache-layer.md`, `# x\n${ours}\n`), false, 'deny'],
      ['own marker over another session\'s file', write(mem('handoff-main-login-loop.md'), body), false, 'deny'],
      ['own marker over a legacy file', write(mem('handoff-main-old-notes.md'), body), true, 'allow'],
      ['no valid topic', write(`${repo.dir}/alone/memory/handoff-main-x.md`, body), false, 'deny'],
      ['a handoff.protect glob', write(`${repo.dir}/notes/plan.md`, '# no marker\n'), false, 'deny'],
      ['inside .git', write(`${repo.dir}/.git/memory/handoff-main-auth-refactor.md`, body), false, 'allow'],
      ['Edit of own file', edit(mem('handoff-main-auth-refactor.md'), 'the old notes', 'the new notes'), true, 'allow'],
      ['Edit dropping the marker', edit(mem('handoff-main-auth-refactor.md'), ours, '# gone'), false, 'deny'],
      ['Edit keeping the marker', edit(mem('handoff-main-auth-refactor.md'), `${ours}\n# auth-refactor`, `${ours}\n# auth`), true, 'allow'],
      ['Edit of a legacy file', edit(mem('handoff-main-old-notes.md'), 'legacy', 'mine'), false, 'deny'],
      ['Edit of another session\'s file', edit(mem('handoff-main-login-loop.md'), 'login', 'x'), false, 'deny'],
      ['Edit of a missing file', edit(`${repo.dir}/alone/memory/handoff-main-cache-layer.md`, 'a', 'b'), true, 'allow'],
      ['MultiEdit of own file', multi(mem('handoff-main-auth-refactor.md'), [['old', 'new'], ['Goal', 'Aim']]), true, 'allow'],
      ['MultiEdit dropping the marker', multi(mem('handoff-main-auth-refactor.md'), [['old', 'new'], ['claude-session:', 'x']]), false, 'deny'],
      ['foreign marker under bypass', write(mem('handoff-main-auth-refactor.md'), `${theirs}\n# x\n`), false, 'allow', { GIT_HANDOFF_BYPASS: '1' }],
      ['codex apply_patch updating own file', payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n*** Update File: memory/handoff-main-auth-refactor.md\n@@\n-Goal: the old notes.\n+Goal: new.\n*** End Patch` } }), true, 'allow'],
      ['codex apply_patch dropping the marker', payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n*** Update File: memory/handoff-main-auth-refactor.md\n@@\n-${ours}\n+# gone\n*** End Patch` } }), false, 'deny'],
      ['codex apply_patch deleting own file', payload(repo, 'codex/pre-tool-use-apply-patch.json', { tool_input: { command: `*** Begin Patch\n*** Delete File: memory/handoff-main-auth-refactor.md\n*** End Patch` } }), false, 'allow'],
      ['gemini write_file, own file', payload(repo, 'gemini-cli/before-tool-write-file.json', { tool_input: { file_path: mem('handoff-main-auth-refactor.md'), content: body } }), true, 'allow'],
    ];
    for (const [what, p, alone, answer, env] of cases) {
      const before = loads(marker);
      const out = run(repo, bin, p, env);
      expect(loads(marker) - before, what).toBe(alone ? 0 : 1);
      expect(out, what).toBe(full(repo, p, env));
      const hso = out ? JSON.parse(out).hookSpecificOutput ?? JSON.parse(out) : null;
      const got = !out ? 'allow' : hso.permissionDecision === 'deny' || JSON.parse(out).decision === 'deny' ? 'deny' : 'context';
      expect(got, `${what}: ${out}`).toBe(answer);
    }
    // A session seen for the first time in a client that names its process: lineage is the full guard's.
    const S2 = 'fresh-5f0c-cccc';
    mkdirSync(path.join(repo.dir, 'alone2', 'memory'), { recursive: true });
    const own = payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: `${repo.dir}/alone2/memory/handoff-main-cache-layer.md`, content: `<!-- claude-session: ${S2} -->\n# x\n` } }, S2);
    const before = loads(marker);
    expect(run(repo, bin, own, { CLAUDE_PID: String(process.pid) })).toContain('another live session');
    expect(loads(marker)).toBe(before + 1);
  });
});
