// hot.ts reads the common command lines of write, show, list, log, claim and status without yargs. For every command line here
// (written out, and generated from a vocabulary of the shapes yargs reads in its own ways), the hot reading either
// leaves it to yargs (null) or gives the handler exactly the arguments yargs gives it, after the same prechecks
// main.ts runs. The common forms must not be left to yargs: that is the point of the hot reading.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { helpAlias, precheck } from '../../src/cli/argv';
import { hotParse } from '../../src/cli/hot';
import { pagerSwitches } from '../../src/cli/pager';
import { buildParser, commands, nameOf } from '../../src/cli/parser';

const NAMES = [...commands.map(nameOf), 'githook'];

/** argv as main.ts hands it to either parser, or null where main.ts stops before parsing (a precheck's refusal). */
function prepared(argv: string[]): string[] | null {
  try {
    return precheck(pagerSwitches(helpAlias(argv)).argv, NAMES);
  } catch {
    return null;
  }
}

/** What yargs (the real parser, without the steps before a handler) passes the handler, or 'refused'. */
function viaYargs(argv: string[]): Record<string, unknown> | 'refused' | 'no handler' {
  let got: Record<string, unknown> | null = null;
  const capture = commands.map((c) => ({ ...c, handler: (a: Record<string, unknown>) => void (got = { ...a }) }));
  const y = buildParser(argv, { commands: capture, start: false }).exitProcess(false);
  try {
    y.parse();
  } catch {
    return 'refused';
  }
  return got ?? 'no handler';
}

/** The hot reading of argv checked against yargs's; returns whether the hot reading took it. */
function agrees(argv: string[]): boolean {
  const p = prepared(argv);
  if (p === null) return false;
  const hot = hotParse(p);
  if (hot === null) return false;
  const y = viaYargs(p);
  expect(y, `yargs on ${JSON.stringify(argv)}`).not.toBe('refused');
  expect(hot.args, JSON.stringify(argv)).toStrictEqual(y);
  return true;
}

// what agents and people type: every one of these must be read without yargs, and as yargs reads it
const COMMON: string[][] = [
  ['write', 'auth-refactor', '-F', '-'],
  ['write', 'auth-refactor', '-F', 'notes.md'],
  ['write', 'auth-refactor', '--file', 'notes.md'],
  ['write', 'auth-refactor', '--file=notes.md'],
  ['write', 'auth-refactor', '-m', 'Goal: x', '-m', 'Next action: y'],
  ['write', 'auth-refactor', '--message', 'one', '-m', 'two'],
  ['write', 'auth-refactor', '-m', 'x', '--session', 'abc-123', '--json'],
  ['write', 'auth-refactor', '-F', '-', '--take-over', '--reason', 'owner session ended'],
  ['write', 'auth-refactor', '-F', '-', '--to', 'client:claude-code', '--to', 'role:reviewer', '--tag', 'auth'],
  ['write', 'auth-refactor', '-F', '-', '--to-none', '--ref', 'src/a.ts', '--ref=HEAD~1', '--allow-secret', 'aws'],
  ['write', 'auth-refactor', '-F', '-', '--person', '--redact', '--template', '-q'],
  ['write', 'auth-refactor', '-F', '-', '--branch', 'feature/login', '--quiet'],
  ['write', 'auth-refactor', '-F', '-', '-C', 'sub', '-C', 'deeper'],
  ['write', '-m', 'x', '--session', 's', '--', 'auth-refactor'],
  ['show', 'auth-refactor'],
  ['show'],
  ['show', '--json'],
  ['show', 'auth-refactor', '--raw', '--no-receipt'],
  ['show', 'auth-refactor', '--at', '~1', '--raw'],
  ['show', 'auth-refactor', '--at=0123abc', '--branch', 'main', '--session', 's-1', '--role', 'reviewer'],
  ['show', 'auth-refactor', '--receipt', '--person'],
  ['show', 'auth-refactor', '--no-pager'],
  ['-C', 'sub', 'show', 'auth-refactor'],
  ['--json', 'show', 'auth-refactor'],
  ['list'],
  ['list', '--all', '--json'],
  ['list', '--mine', '--session', 'abc'],
  ['list', '--archived', '--all'],
  ['list', '--branch', 'main', '--for-me', '--unread', '--tag', 'auth', '--to', 'role:reviewer'],
  ['list', '-q'],
  ['log', 'auth-refactor'],
  ['log', '-p', 'auth-refactor'],
  ['log', 'auth-refactor', '--patch', '--json', '--branch=main'],
  ['show', 'show'],
  ['claim', 'src/auth/'],
  ['claim', 'src/auth/', '--note', 'moving login to OAuth', '--ttl', '1h'],
  ['claim', 'src/a.ts', 'src/b/', 'src/**/*.test.ts', '--json'],
  ['claim', 'src/auth/', '--session', 's-1', '--take-over', '--reason', 'holder gone', '--branch=main'],
  ['claim', '--note=x', 'src/a', '--offline', 'src/b'],
  ['status'],
  ['status', '--json'],
  ['status', '--all', '--watch'],
  ['status', '--branch', 'main', '--session', 's-1', '--json'],
  ['status', '--person', '--role', 'reviewer', '-q'],
];

describe('the hot reading of write, show, list, log, claim and status', () => {
  it('reads the common command lines itself, exactly as yargs does', () => {
    for (const argv of COMMON) expect(agrees(argv), JSON.stringify(argv)).toBe(true);
  });

  it('leaves to yargs what yargs reads in its own ways (or refuses)', () => {
    const LEFT: string[][] = [
      ['write', 'auth-refactor', '-h'],
      ['write', '--help'],
      ['show', '--version'],
      ['help', 'write'],
      ['write', 'auth-refactor', '--sesion', 'x', '-m', 'y'],
      ['write', 'auth-refactor', '--takeOver', '-m', 'y'],
      ['write', 'auth-refactor', '-mtext'],
      ['write', 'auth-refactor', '-qm', 'x'],
      ['write', 'auth-refactor', '-m'],
      ['write', 'auth-refactor', '-m', 'a', 'b'],
      ['write', '-m', 'a', 'auth-refactor'],
      ['write', 'auth-refactor', '-m', '-5'],
      ['write', 'auth-refactor', '--file', '-'],
      ['write', 'auth-refactor', '-F', 'a', '-F', 'b'],
      ['write', 'auth-refactor', '--branch', 'a', '--branch', 'b', '-m', 'x'],
      ['write', 'auth-refactor', '--branch="main"', '-m', 'x'],
      ['write', 'auth-refactor', '--redact=false', '-m', 'x'],
      ['write', 'auth-refactor', '--redact', 'true', '-m', 'x'],
      ['write', 'auth-refactor', '--no-branch', '-m', 'x'],
      ['write', 'auth-refactor', 'extra', '-m', 'x'],
      ['write', '-m', 'x'],
      ['show', '123'],
      ['show', '0x1f'],
      ['show', 'a', 'b'],
      ['show', '-'],
      ['show', 'x-y', '--raw', '--raw'],
      ['show', 'x-y', '--no-receipt', '--receipt'],
      ['list', 'extra'],
      ['list', '--all', '--branch', 'main'],
      ['list', '--get-yargs-completions', 'li'],
      ['-C', '-', 'list'],
      ['-C', 'list'],
      ['list', '-C'],
      ['log'],
      ['claim'],
      ['claim', '--note', 'x'],
      ['claim', '42'],
      ['claim', 'src/a', '--ttl'],
      ['claim', 'src/a', '--take-over=true'],
      ['claim', 'src/a', '--', '--b'],
      ['status', '--all', '--branch', 'main'],
      ['status', 'extra'],
      ['status', '--watch=false'],
      ['edit', 'auth-refactor'],
      ['boot'],
      ['--version'],
      [],
    ];
    for (const argv of LEFT) {
      const p = prepared(argv);
      expect(p === null ? null : hotParse(p), JSON.stringify(argv)).toBeNull();
    }
  });

  it('agrees with yargs on generated command lines', () => {
    // whole options with their values (most command lines are made of these), each command's own and the global
    // ones, and single words of every odd shape
    const GLOBAL = [['--json'], ['--no-json'], ['-q'], ['--quiet'], ['-C', 'sub']];
    const UNITS: Record<string, string[][]> = {
      write: [
        ['auth-refactor'], ['-m', 'x'], ['-m', 'y z'], ['--message', 'x'], ['--message=m'], ['-F', '-'], ['-F', 'f.md'], ['--file', 'f'],
        ['--file=-'], ['--branch', 'main'], ['--branch=feature/a'], ['--session', 's-1'], ['--session=s'], ['--take-over'],
        ['--reason', 'gone'], ['--to', 'role:r'], ['--to=client:x'], ['--to-none'], ['--tag', 'auth'], ['--ref', 'HEAD'],
        ['--allow-secret', 'aws'], ['--template'], ['--redact'], ['--person'],
      ],
      show: [['auth-refactor'], ['--person'], ['--role', 'r'], ['--receipt'], ['--no-receipt'], ['--session', 's'], ['--branch', 'b'], ['--at', '~1'], ['--at=HEAD'], ['--raw'], ['--no-raw']],
      list: [['--person'], ['--role=r'], ['--branch', 'main'], ['--all'], ['--mine'], ['--archived'], ['--session', 's'], ['--to', 'role:r'], ['--for-me'], ['--tag', 't'], ['--unread'], ['--no-all']],
      log: [['auth-refactor'], ['--branch', 'main'], ['-p'], ['--patch'], ['--no-patch']],
      claim: [['src/auth/'], ['src/a.ts'], ['**/*.ts'], ['--ttl', '30m'], ['--ttl=2h'], ['--note', 'why'], ['--note=w'], ['--session', 's'], ['--branch', 'main'], ['--take-over'], ['--reason', 'r'], ['--offline'], ['--no-offline']],
    };
    const odd = fc.constantFrom(
      'auth-refactor', 'show', 'list', 'main', '~1', '123', '0x1f', '1e3', '-5', '-', '--', '', 'true', 'false', '"q"', "'q'", 'a=b',
      '-m', '-F', '-C', '-h', '-mx', '-qh', '-Fq', '--file=', '--branch=', '--branch="b"', '--takeOver', '--raw=true', '--to',
      '--no-branch', '--no-to', '--no-pager', '-P', '--help', '--version', '--unknown', '--C', '--q', '-json', '--at', '--tag',
    );
    const line = fc.constantFrom('write', 'show', 'list', 'log', 'claim').chain((cmd) =>
      fc.tuple(
        fc.constant(cmd),
        fc.array(fc.oneof({ arbitrary: fc.constantFrom(...UNITS[cmd], ...GLOBAL), weight: 6 }, { arbitrary: odd.map((w) => [w]), weight: 1 }), { maxLength: 6 }),
        fc.nat(6),
      ),
    );
    const seen = { hot: 0, all: 0 };
    fc.assert(
      fc.property(line, ([cmd, units, at]) => {
        const argv = units.flat();
        argv.splice(Math.min(at, argv.length), 0, cmd);
        seen.all++;
        if (agrees(argv)) seen.hot++;
      }),
      { numRuns: 3000, seed: 25 },
    );
    // the generator reaches the hot reading often enough for the comparison to mean something
    expect(seen.hot).toBeGreaterThan(seen.all / 10);
});
});
