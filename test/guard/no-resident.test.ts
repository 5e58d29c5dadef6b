// No git-handoff process outlives the tool call or git command that started it: after guard calls through the sh
// front (the ones it hands to node, a session's start and end, the after-tool hook) and commits, amends and a push
// through the hooks, no node process runs this build's bundles (dist/*.cjs) or launcher for the test's HOME.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, ROOT } from '../helpers/repo';
import { ME, payload } from './helpers';

/** The processes of this build left running for `home`: pid and command line, from /proc (zombies aside). */
function leftFor(home: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.includes(path.join(ROOT, 'dist')) && !cmd.includes(path.join(ROOT, 'bin'))) continue;
      const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) out.push(`${d}: ${cmd}`);
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return out;
}

describe('no resident process', () => {
  it('after guard calls handed to node, session start and end, and commits and a push through the hooks', async () => {
    const repo = makeRepo({ commit: true });
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    const bare = makeRepo({ init: ['--bare'] });
    repo.git(['remote', 'add', 'origin', bare.dir]);
    const front = path.join(ROOT, 'bin', 'git-handoff-guard');
    const env = { ...repo.env, PATH: `${path.join(ROOT, 'bin')}:${repo.env.PATH}` };
    const calls = [
      payload(repo, 'claude-code/session-start.json', {}, ME),
      payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'echo x > a.txt' } }, ME),
      payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'git update-ref -d refs/handoffs/main/x' } }, ME),
      payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'memory/handoff-main-my-notes.md', content: `<!-- claude-session: ${ME} -->\nx\n` } }, ME),
      payload(repo, 'claude-code/pre-tool-use-write.json', { tool_input: { file_path: 'src/app.ts', content: 'x\n' } }, ME),
      payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command: 'ls -la' } }, ME),
      payload(repo, 'claude-code/stop.json', {}, ME),
      payload(repo, 'claude-code/real-session-end.json', {}, ME),
    ];
    for (const p of calls) {
      const r = spawnSync('/bin/sh', ['-c', `set -- --sourced git-handoff-guard --client=claude-code; . '${front}'`], { cwd: repo.dir, env, input: JSON.stringify(p), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(leftFor(repo.home), JSON.stringify(p).slice(0, 120)).toEqual([]);
    }
    const git = (args: string[], extra: Record<string, string> = {}) => {
      const r = spawnSync('git', args, { cwd: repo.dir, env: { ...env, ...extra }, encoding: 'utf8' });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(leftFor(repo.home), args.join(' ')).toEqual([]);
    };
    repo.write('a.txt', 'a\n');
    git(['add', 'a.txt']);
    git(['commit', '-q', '-m', 'agent'], { CLAUDE_CODE_SESSION_ID: ME });
    git(['commit', '-q', '--amend', '-m', 'agent amend'], { CLAUDE_CODE_SESSION_ID: ME });
    git(['commit', '-q', '--allow-empty', '-m', 'person']);
    git(['push', '-q', 'origin', 'HEAD:refs/heads/main']);
  }, 120_000);
});
