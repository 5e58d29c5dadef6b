// src/guard/shell/printed.ts works out what echo and printf print, for the rules that read a producer's output (a script
// piped into a shell, the arguments xargs appends). Checked against the real thing: bash's printf and echo -e, and
// dash's echo, on generated formats and arguments; where it does not work an output out it says so (null).
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoOutputs, printfOutput } from '../../src/guard/shell/printed';

const ENV = { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' };
const SEP = '\x1f\x1e';
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
/** What a shell prints for each `<command> <args…>`, in one run of it, the bytes read as Latin-1 (every generated character is below 0x80 or an escape of one). */
const real = (shell: string, calls: Array<[string, string[]]>): string[] => {
  const script = calls.map(([cmd, args]) => `${cmd} ${args.map(quote).join(' ')}; printf '\\037\\036'`).join('\n');
  const r = spawnSync(shell, ['-c', script], { env: ENV, maxBuffer: 1 << 26 });
  return r.stdout.toString('latin1').split(SEP).slice(0, calls.length);
};

const plain = fc.constantFrom('a', 'm', 'Z', '/', '.', '-', '_', ' ', 'x9', 'memory');
const escape = fc.constantFrom('\\n', '\\t', '\\\\', '\\0', '\\012', '\\101', '\\0101', '\\x41', '\\x7', '\\a', '\\e', '\\E', '\\c', '\\q', '\\"', '\\u0041', '\\');
const conversion = fc.constantFrom('%s', '%b', '%c', '%%', '%.3s', '%5s', '%-4s', '%.0s', '%q');
const text = (parts: fc.Arbitrary<string>[]) => fc.array(fc.oneof(...parts), { maxLength: 8 }).map((a) => a.join(''));

describe('printf as bash prints it', () => {
  it('formats of literal text, escapes and string conversions, with fewer, as many or more arguments', () => {
    const cases = fc.sample(fc.tuple(text([plain, escape, conversion]).filter((f) => !f.startsWith('-')), fc.array(text([plain, escape]), { maxLength: 4 })), { numRuns: 400 });
    const theirs = real('bash', cases.map(([format, args]) => ['printf', [format, ...args]]));
    const wrong = cases.flatMap(([format, args], i) => {
      const ours = printfOutput([format, ...args]);
      // %q quotes its argument for the shell: worked out for plain words only (else null)
      if (ours === null && format.includes('%q')) return [];
      return ours === theirs[i] ? [] : [{ format, args, ours, bash: theirs[i] }];
    });
    expect(wrong).toEqual([]);
    expect(cases.filter(([f, a]) => printfOutput([f, ...a]) !== null).length).toBeGreaterThan(300);
  });

  it('says it does not know (null) for numeric conversions and a width from an argument; -v prints nothing', () => {
    expect(printfOutput(['%d\\n', '1'])).toBeNull();
    expect(printfOutput(['%*s', '3', 'x'])).toBeNull();
    expect(printfOutput(['%05x', '9'])).toBeNull();
    expect(printfOutput(['-v', 'x', 'memory'])).toBe('');
    expect(printfOutput(['--', 'mem%s', 'ory'])).toBe('memory');
    expect(printfOutput(['%s', 'x'.repeat(70_000)])).toBeNull();
  });
});

describe('echo as each shell prints it', () => {
  it('as written, as bash -e reads it, as dash reads it', () => {
    const cases = fc.sample(fc.tuple(fc.array(text([plain, escape]), { minLength: 1, maxLength: 4 }), fc.constantFrom<string[]>([], ['-n'])), { numRuns: 300 });
    const bashE = real('bash', cases.map(([words, opts]) => ['echo -e', [...opts, ...words]]));
    const bashPlain = real('bash', cases.map(([words, opts]) => ['echo', [...opts, ...words]]));
    // dash's echo takes only -n; its escapes are always read
    const dash = real('dash', cases.map(([words, opts]) => ['echo', [...opts, ...words]]));
    const wrong = cases.flatMap(([words, opts], i) => {
      const ours = echoOutputs([...opts, ...words])!;
      const ok = ours[0] === bashPlain[i] && ours[1] === bashE[i] && ours[2] === dash[i];
      return ok ? [] : [{ words, opts, ours, bashPlain: bashPlain[i], bashE: bashE[i], dash: dash[i] }];
    });
    expect(wrong).toEqual([]);
    // -e given by the caller reads the same as bash's
    expect(echoOutputs(['-e', 'a\\tb'])![1]).toBe('a\tb\n');
  });
});
