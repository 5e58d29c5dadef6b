// temporary profiling script (not committed)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, interleave, nodeFloor, tempRepo, timeSync } from './lib.mjs';
import { viaGit } from './store.mjs';
const ME = '5f0c6a52-1b7e-4f0e-9f3a-2d4c8e1a7b90';
const OTHER = '9b1e77d0-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const OWN = 'memory/handoff-main-auth-refactor.md';
const MARKER = `<!-- claude-session: ${ME} -->`;
const repo = tempRepo('gh-prof-');
const env = { ...viaGit(repo.env) };
mkdirSync(path.join(repo.dir, 'memory')); mkdirSync(path.join(repo.dir, 'src'));
writeFileSync(path.join(repo.dir, OWN), `${MARKER}\n# a\n`);
writeFileSync(path.join(repo.dir, 'src/app.ts'), 'x\n');
repo.git(['add', '-A']); repo.git(['commit', '-q', '--no-verify', '-m', 'x']);
timeSync('git', ['handoff', 'install', '--agent', 'claude'], { cwd: repo.dir, env });
const settings = JSON.parse(readFileSync(path.join(repo.dir, '.claude/settings.json'), 'utf8'));
const cmd = settings.hooks.PreToolUse[0].hooks[0].command;
console.log('cmd', cmd);
const pay = (session, tool, input) => JSON.stringify({ session_id: session, transcript_path: '/x', cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });
const sh = (input) => () => timeSync('sh', ['-c', cmd], { cwd: repo.dir, env, input, allowFail: true }).ms;
// other session claims a file
sh(pay(OTHER, 'Write', { file_path: 'src/theirs.ts', content: 'x' }))();
writeFileSync(path.join(repo.dir, 'src/theirs.ts'), 'x\n');
const cases = {
  own: pay(ME, 'Write', { file_path: OWN, content: `${MARKER}\n# b\n` }),
  commit: pay(ME, 'Bash', { command: 'git commit -m x' }),
  updref: pay(ME, 'Bash', { command: 'git update-ref refs/handoffs/main/auth-refactor HEAD' }),
};
for (const [k, input] of Object.entries(cases)) sh(input)();
const runs = Number(process.argv[2] ?? 15);
const only = process.argv[3];
for (const [k, input] of Object.entries(cases)) {
  if (only && k !== only) continue;
  const r1 = interleave(runs, sh(input), nodeFloor(repo.env));
  const r2 = interleave(runs, () => timeSync(path.join(ROOT, 'bin/git-handoff'), ['guard', '--client=claude-code'], { cwd: repo.dir, env, input, allowFail: true }).ms, nodeFloor(repo.env));
  const r3 = interleave(runs, () => timeSync(process.execPath, [path.join(ROOT, 'bin/git-handoff'), 'guard', '--client=claude-code'], { cwd: repo.dir, env, input, allowFail: true }).ms, nodeFloor(repo.env));
  console.log(k, "cpu", r1.cpu?.ratio?.toFixed(3), r2.cpu?.ratio?.toFixed(3), r3.cpu?.ratio?.toFixed(3), "via sh front", r1.ratio?.toFixed?.(3) ?? JSON.stringify(r1), '| launcher w/ env', r2.ratio?.toFixed?.(3), '| node launcher', r3.ratio?.toFixed?.(3), "base", r1.baseline.toFixed(1), "meas", r1.measured.toFixed(1));
}
console.log(repo.dir);
