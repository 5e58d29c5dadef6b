// A property of the guard's one shell reader (issue 24): for generated command lines, quoting or escaping any
// character of any word — '…', "…", a backslash, $'\xHH' — never changes the decision. The guard decides on what
// the shell will run, not on how the line is spelled.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { quickIt, slowIt } from '../helpers/sets';
import { detectClient } from '../../src/clients/index';
import { GuardContext } from '../../src/guard/context';
import { decide } from '../../src/guard/entry';
import { FOREIGN_FILE, foreignWorld, OWN_FILE, SHELL_CLIENTS, verdict } from './world';
import { ME } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';
const PROGRAMS = ['git', 'rm', 'cat', 'sort', 'tee', 'echo', 'cp', 'ln', 'sed', 'touch', 'mytool', 'grep', 'find', 'xargs', 'truncate'];
const ARGS = [FOREIGN_FILE, OWN_FILE, 'README.md', 'memory/scratch/tmp.txt', 'memory', 'update-ref', '-d', REF, 'refs/heads/topic', 'refs/notes/handoff-reads', 'HEAD', '-f', '-rf', '-o', 'log', 'status', 'push', 'origin', 'clean', '-fdx', 'stash', '-u', 'notes', '--ref=handoff-reads', 'remove', '-i', 's/a/b/', 'x.txt', '.git/packed-refs', '-delete', '-s', '0', 'rm'];

/** One word spelled with character `i` quoted in one of the shell's ways (each removes to the same character). */
function quoteAt(word: string, i: number, style: number): string {
  const c = word[i];
  let q: string;
  switch (style % 4) {
    case 0:
      q = c === "'" ? `"'"` : `'${c}'`;
      break;
    case 1:
      q = /["\\$`!]/.test(c) ? `\\${c}` : `"${c}"`;
      break;
    case 2:
      q = `\\${c}`;
      break;
    default:
      q = `$'\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}'`;
  }
  return word.slice(0, i) + q + word.slice(i + 1);
}

describe('quoting or escaping any character never changes the decision', () => {
  quickIt('on generated command lines, in every client shape', async () => {
    const repo = await foreignWorld();
    const env = { ...process.env, GIT_HANDOFF_SESSION: ME };
    const decideOn = async (command: string, client: number): Promise<string> => {
      const p = SHELL_CLIENTS[client].make(repo, command);
      const adapter = detectClient(p);
      const event = adapter.parse(p);
      return verdict(adapter.render(event, await decide(new GuardContext(event, env))) ?? '');
    };
    const simple = fc.tuple(fc.constantFrom(...PROGRAMS), fc.array(fc.constantFrom(...ARGS), { minLength: 1, maxLength: 4 }), fc.option(fc.constantFrom(FOREIGN_FILE, 'out.txt', '.git/refs/handoffs/main/x'), { nil: undefined }));
    const line = fc.array(simple, { minLength: 1, maxLength: 3 });
    // which words get quoted, at which character, in which style
    const spelling = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(3)), { minLength: 1, maxLength: 6 });
    const denied = { n: 0 };
    const wrong: string[] = [];
    await fc.assert(
      fc.asyncProperty(line, spelling, fc.nat(2), async (cmds, spell, client) => {
        const words = cmds.map(([p, args, out]) => [p, ...args, ...(out ? ['>', out] : [])]);
        const plain = words.map((w) => w.join(' ')).join(' ; ');
        const flat = words.flatMap((w, k) => w.map((_, j) => [k, j] as const)).filter(([k, j]) => words[k][j] !== '>');
        const quoted = words.map((w) => [...w]);
        for (const [at, ch, style] of spell) {
          const [k, j] = flat[at % flat.length];
          // quote a character of the word as it is now spelled, one the quoting before left unquoted
          const original = words[k][j];
          const now = quoted[k][j];
          if (now !== original) continue;
          quoted[k][j] = quoteAt(original, ch % original.length, style);
        }
        const spelled = quoted.map((w) => w.join(' ')).join(' ; ');
        const a = await decideOn(plain, client);
        const b = await decideOn(spelled, client);
        if (a === 'deny') denied.n++;
        if (a !== b) wrong.push(`${JSON.stringify(plain)} → ${a}, ${JSON.stringify(spelled)} → ${b}`);
      }),
      { numRuns: 250 },
    );
    expect(wrong).toEqual([]);
    // the lines are not all alike: both decisions are exercised
    expect(denied.n).toBeGreaterThan(20);
    expect(denied.n).toBeLessThan(250);
  }, 300_000);

  slowIt('the shell itself removes the quotes the property uses to the same word', async () => {
    const { execFileSync } = await import('node:child_process');
    for (const w of ['refs/handoffs/main/auth-refactor', 'memory/handoff-main-x.md', '--ref=handoff-reads', 's/a/b/']) {
      for (let i = 0; i < w.length; i++) {
        for (let style = 0; style < 4; style++) {
          const out = execFileSync('bash', ['-c', `printf '%s' ${quoteAt(w, i, style)}`]).toString();
          expect(out, `${w} ${i} ${style}`).toBe(w);
        }
      }
    }
  });
});
