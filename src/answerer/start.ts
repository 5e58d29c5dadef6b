// A guard that was started because the answerer did not answer (the front set MISSED_VAR) starts one, detached,
// when it exits: at most one start per START_EVERY_MS for the user (a dated mark), never from inside a spare, and
// never under GIT_HANDOFF_ANSWERER=0. It only ever costs the call that starts it a process spawn, after its answer.
import { closeSync, mkdirSync, openSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { answererOff, answerStartMark, MISSED_VAR, START_EVERY_MS } from './place';
import { HOOK_PARENT } from './parent';

export function startAnswererAtExit(dist: string): void {
  const env = process.env;
  if (env[MISSED_VAR] !== '1' || answererOff(env) || process.platform !== 'linux' || HOOK_PARENT in process) return;
  process.once('exit', () => {
    try {
      const mark = answerStartMark(env);
      try {
        if (Date.now() - statSync(mark).mtimeMs < START_EVERY_MS) return;
        const now = new Date();
        utimesSync(mark, now, now);
      } catch {
        mkdirSync(path.dirname(mark), { recursive: true, mode: 0o700 });
        closeSync(openSync(mark, 'a', 0o600));
      }
      const { spawn } = require('node:child_process') as typeof import('node:child_process');
      const child = spawn(process.execPath, [path.join(dist, 'answerer.cjs')], {
        detached: true,
        stdio: 'ignore',
        cwd: '/',
        env: { ...env, [MISSED_VAR]: '', NODE_EXTRA_CA_CERTS: '' },
      });
      child.on('error', () => undefined);
      child.unref();
    } catch {
      /* no answerer: the next call is node's again, as before */
    }
  });
}
