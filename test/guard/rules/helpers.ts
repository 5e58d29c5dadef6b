// What the rule tests share: a call run as a client runs it — the real sh front decides in Claude Code's shape, and
// only an allowed command is then run by sh in the world's repository — so a test sees what the user would: a refused
// call changes nothing, an allowed one does its work.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../helpers/repo';
import { throughFront } from '../spellings';
import { SHELLS5, type World5 } from '../world-wired';
import { ME } from '../helpers';

/** Decides `command` through the real front and, when allowed, runs it (its session's shell: CLAUDE_CODE_SESSION_ID set, git-handoff on PATH). */
export function asClient(w: World5, command: string): { verdict: string; status: number | null; out: string } {
  const c = w.fill(command);
  const d = throughFront(w.repo, 'claude-code', SHELLS5[0].make(w.repo, c));
  if (d.verdict !== 'allow') return { verdict: d.verdict, status: null, out: d.out };
  const r = spawnSync('sh', ['-c', c], { cwd: w.repo.dir, env: { ...w.repo.env, PATH: `${path.join(ROOT, 'bin')}${path.delimiter}${w.repo.env.PATH}`, CLAUDE_CODE_SESSION_ID: ME, GIT_HANDOFF_SESSION: ME }, encoding: 'utf8' });
  return { verdict: 'allow', status: r.status, out: `${r.stdout}${r.stderr}` };
}
