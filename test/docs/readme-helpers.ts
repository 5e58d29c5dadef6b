// The README's sh blocks, run as a person pastes them: the lines of a section's blocks, and one shell that runs them
// (test/docs/docs.test.ts and test/docs/readme-blocks.slow.test.ts).
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/repo';

/** The README's lines under `## heading` (its ### subsections too): comments and comment lines stripped, a line
 *  ending in `\` joined to the next, as the shell reads it. */
export function readmeBlock(heading: string): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}\n`)).split(/\n## /)[0];
  const raw = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n')).map((l) => l.replace(/(^|\s+)#.*$/, '').trim()).filter(Boolean);
  const lines: string[] = [];
  let carry = '';
  for (const l of raw) {
    if (l.endsWith('\\')) carry += `${l.slice(0, -1).trimEnd()} `;
    else {
      lines.push(carry + l);
      carry = '';
    }
  }
  return lines;
}

/** Runs `lines` in one shell as a person pastes them (the state of `cd` carries over), each line's exit code. */
export async function pasted(lines: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Array<{ line: string; code: number; out: string }>> {
  const { execa } = await import('execa');
  const script = lines.map((l, i) => `${l}\necho "@@ ${i} $?"`).join('\n');
  const r = await execa('sh', ['-c', script], { cwd, env, extendEnv: false, reject: false, all: true });
  const all = String(r.all);
  return lines.map((line, i) => {
    const m = new RegExp(`^@@ ${i} (\\d+)$`, 'm').exec(all);
    const before = all.slice(i === 0 ? 0 : all.indexOf(`@@ ${i - 1} `), m?.index ?? all.length);
    return { line, code: m ? Number(m[1]) : -1, out: before };
  });
}

/** Every path under `dir` (a file with a digest of its bytes, a folder with a `/`), `skip`ped relative paths left out. */
export function tree(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = path.join(d, n);
      const rel = path.relative(dir, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(`${rel} ${st.isFile() ? createHash('sha1').update(readFileSync(p)).digest('hex').slice(0, 12) : 'link'}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}
