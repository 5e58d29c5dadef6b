// One retry policy (issue 54): src/retry.ts holds the only sleep and the only retry loop of the product. The check
// reads every other source with TypeScript's parser and fails on a sleep primitive (Atomics.wait, a timer that
// resolves a promise or runs its own function again, timers/promises, a `sleep` process, a loop spinning on the
// clock) or a retry counter (a counter named for attempts, or one counted up in a loop that goes round again while
// it is under a bound). The policy's loops themselves are run here too: their waits, a spent policy, LOST and AGAIN.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AGAIN, LOST, retrying, retryingAsync, untilWon, untilWonAsync, type BackoffPolicy } from '../src/retry';
import { HandoffError } from '../src/errors';

const SRC = path.join(__dirname, '..', 'src');
const POLICY = 'retry.ts';
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** A name that says it counts tries. */
const COUNTER = /^(attempts?|retr(y|ies)|tries|tried|waits)(Left|Made|Count)?$/i;
const isLoop = (n: ts.Node): n is ts.IterationStatement => ts.isForStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n);
const isIncrement = (n: ts.Node): n is ts.PrefixUnaryExpression | ts.PostfixUnaryExpression | ts.BinaryExpression =>
  ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) ||
  (ts.isBinaryExpression(n) && (n.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken || n.operatorToken.kind === ts.SyntaxKind.MinusEqualsToken));
const incremented = (n: ts.Node): string | null => {
  const target = ts.isBinaryExpression(n) ? n.left : (n as ts.PrefixUnaryExpression | ts.PostfixUnaryExpression).operand;
  return ts.isIdentifier(target) ? target.text : null;
};
const COMPARISON = new Set([ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken]);
const callee = (n: ts.CallExpression | ts.NewExpression): string => (n.expression ? n.expression.getText() : '');
const clock = (n: ts.Node): boolean => (ts.isCallExpression(n) && /^(Date|performance)\.now$/.test(callee(n))) || ts.forEachChild(n, clock) === true;
/** The function (declaration, or a const's arrow or function) a node is in, by name. */
function enclosingName(n: ts.Node): string | null {
  for (let p = n.parent; p; p = p.parent) {
    if (ts.isFunctionDeclaration(p) && p.name) return p.name.text;
    if ((ts.isArrowFunction(p) || ts.isFunctionExpression(p)) && ts.isVariableDeclaration(p.parent) && ts.isIdentifier(p.parent.name)) return p.parent.name.text;
  }
  return null;
}
/** The resolver names of the `new Promise((resolve, reject) => …)` executors a node is in. */
function resolvers(n: ts.Node): Set<string> {
  const out = new Set<string>();
  for (let p = n.parent; p; p = p.parent) {
    if ((ts.isArrowFunction(p) || ts.isFunctionExpression(p)) && ts.isNewExpression(p.parent) && callee(p.parent) === 'Promise') {
      for (const param of p.parameters) if (ts.isIdentifier(param.name)) out.add(param.name.text);
    }
  }
  return out;
}
/** A timer's callback that only resolves a promise or runs the function the timer is set in again. */
function timerLoops(cb: ts.Expression, self: string | null, resolve: Set<string>): boolean {
  const only = ts.isIdentifier(cb) ? cb : ts.isArrowFunction(cb) && ts.isCallExpression(cb.body) && ts.isIdentifier(cb.body.expression) ? cb.body.expression : null;
  return !!only && (only.text === self || resolve.has(only.text));
}

/** What in a source text sleeps or counts retries: one line each, `file:line: what`. */
export function offenders(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const at = (n: ts.Node, what: string) => out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${what}: ${n.getText(sf).split('\n')[0].slice(0, 70)}`);
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && /^Atomics\.wait(Async)?$/.test(n.getText(sf))) at(n, 'a sleep');
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && /^(node:)?timers\/promises$/.test(n.moduleSpecifier.text)) at(n, 'a sleep');
    if (ts.isCallExpression(n)) {
      const name = callee(n);
      if (/^(globalThis\.)?(setTimeout|setImmediate|setInterval)$/.test(name) && n.arguments[0] && timerLoops(n.arguments[0], enclosingName(n), resolvers(n))) at(n, 'a sleep');
      if (/(^|\.)(spawn|exec|execFile)(Sync)?$/.test(name) && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0]) && /^sleep\b/.test(n.arguments[0].text)) at(n, 'a sleep');
      if (name === 'require' && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0]) && /^(node:)?timers\/promises$/.test(n.arguments[0].text)) at(n, 'a sleep');
    }
    if ((ts.isWhileStatement(n) || ts.isDoStatement(n)) && clock(n.expression) && (ts.isEmptyStatement(n.statement) || (ts.isBlock(n.statement) && n.statement.statements.length === 0))) at(n, 'a sleep');
    if (ts.isForStatement(n) && n.condition && clock(n.condition)) at(n, 'a retry loop on the clock');
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && COUNTER.test(n.name.text) && n.initializer && ts.isNumericLiteral(n.initializer)) at(n, 'a retry counter');
    if (isIncrement(n) && COUNTER.test(incremented(n) ?? '')) at(n, 'a retry counter');
    // a counter counted up where the loop goes round again, and compared with a bound: `if (locks++ < 5) continue`
    if (isLoop(n)) {
      const check = (m: ts.Node): void => {
        if (isLoop(m) || ts.isFunctionLike(m)) return;
        if (ts.isIfStatement(m) && goesRound(m.thenStatement)) {
          const bounded = (e: ts.Node): boolean => (ts.isBinaryExpression(e) && COMPARISON.has(e.operatorToken.kind) && [e.left, e.right].some((s) => isIncrement(s) && incremented(s) !== null)) || ts.forEachChild(e, bounded) === true;
          if (bounded(m.expression)) at(m, 'a retry counter');
        }
        ts.forEachChild(m, check);
      };
      ts.forEachChild(n.statement, check);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}
/** A branch that ends in `continue` (the loop goes round again). */
const goesRound = (s: ts.Statement): boolean => ts.isContinueStatement(s) || (ts.isBlock(s) && s.statements.length > 0 && ts.isContinueStatement(s.statements[s.statements.length - 1]));

describe('one retry policy: src/retry.ts alone sleeps and counts retries', () => {
  it('finds each form of a sleep or a retry loop (the loops src/retry.ts replaced among them)', () => {
    const cases: Array<[string, string]> = [
      ['Atomics.wait', 'export const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);'],
      ['a promise resolved by a timer', 'const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));'],
      ['a promise resolved by a timer', 'async function f() { await new Promise((r) => setTimeout(() => r(), 5)); }'],
      ['a poll that sets itself again', 'function step(): void { read(0, buf, 0, 1, null, (err) => { if (err) return void setTimeout(step, 2); step(); }); }'],
      ['a poll that sets itself again', 'const step = (): void => { setTimeout(() => step(), 2); };'],
      ['timers/promises', "import { setTimeout as delay } from 'node:timers/promises';"],
      ['a sleep process', "import { execSync } from 'node:child_process'; execSync('sleep 0.1');"],
      ['a spin on the clock', 'const until = Date.now() + 5; while (Date.now() < until);'],
      ['a loop bounded by the clock', 'for (let i = 0; i < 9 && Date.now() < deadline; i++) step(i);'],
      ['an attempt counter', 'for (let attempt = 0; ; attempt++) { if (tryIt()) break; }'],
      ['an attempt counter', 'let waits = 0; while (busy()) if (++waits > 5) throw new Error();'],
      ['a counted rerun', 'for (let locks = 0; ; ) { const r = run(); if (r.lock && locks++ < 5) { wait(r.lock); continue; } break; }'],
      ['a counted rerun', 'while (true) { if (lost() && n++ <= 60) continue; return; }'],
    ];
    for (const [what, text] of cases) expect(offenders('x.ts', text), what).not.toEqual([]);
    // what is not a retry loop: a timeout that kills, a throttle, a watchdog, an index walking a string
    const fine = [
      'const t = setTimeout(() => { child.kill("SIGKILL"); finish(null); }, TIMEOUT_MS);',
      'const schedule = () => { timer = setTimeout(fire, 100); };',
      'const watchdog = setTimeout(() => process.exit(0), 15_000); watchdog.unref();',
      "for (let i = 0; i < s.length; i++) { if (s[i] === '\\\\') { i++; continue; } }",
      'return untilWon((attempt) => (attempt === 0 ? first : read()), { policy: LOST_RACE, gaveUp });',
    ];
    for (const text of fine) expect(offenders('x.ts', text), text).toEqual([]);
  });

  it('no file of src/ but src/retry.ts sleeps or counts retries', () => {
    const files = sources(SRC).filter((f) => path.relative(SRC, f) !== POLICY);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => offenders(path.relative(SRC, f), readFileSync(f, 'utf8')))).toEqual([]);
  });
});

const quick = (attempts: number, o: Partial<BackoffPolicy> = {}): BackoffPolicy => ({ name: 'quick', startMs: 1, growth: 2, jitter: 0, maxMs: 4, deadlineMs: 10_000, attempts, ...o });

describe('the policy and its loops', () => {
  it('retrying waits by each policy apart, and a spent policy says so', () => {
    const a = quick(2);
    const b = quick(1, { name: 'other' });
    const said: string[] = [];
    const r = retrying((wait, attempt) => {
      if (attempt < 4) {
        const took = attempt % 2 === 0 ? wait(a) : wait(b);
        said.push(`${attempt}:${took}`);
        return AGAIN;
      }
      return attempt;
    });
    expect(r).toBe(4);
    // a: two waits (attempts 0 and 2); b: one (attempt 1), then spent (attempt 3)
    expect(said).toEqual(['0:true', '1:true', '2:true', '3:false']);
  });

  it('waits grow by the policy, up to its cap, and stop at its deadline', () => {
    const started = Date.now();
    let waits = 0;
    retrying((wait) => (wait(quick(Infinity, { startMs: 20, growth: 2, maxMs: 40, deadlineMs: 175 })) ? (waits++, AGAIN) : undefined));
    // 20, 40, 40, 40 end at 140 (the deadline leaves 35 ms for sleeps a loaded machine ends late); a fifth would end at
    // 180 or later, past it
    expect(waits).toBe(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(130);
  });

  it('untilWon runs again after LOST by its policy, at once after AGAIN, and gives up with the attempts made', () => {
    let runs = 0;
    expect(untilWon(() => (++runs < 3 ? LOST : 'won'), { policy: quick(5), gaveUp: () => new HandoffError('concurrent', 'x', 'x') })).toBe('won');
    expect(runs).toBe(3);
    expect(() => untilWon(() => LOST, { policy: quick(2), gaveUp: (n) => new HandoffError('concurrent', 'busy', `${n} attempts`) })).toThrow('3 attempts');
    expect(untilWon(() => LOST, { policy: quick(1), otherwise: () => 'lost' })).toBe('lost');
    // AGAIN takes no wait of the policy: five of them and a win, with a policy of no waits at all
    let again = 0;
    expect(untilWon(() => (again++ < 5 ? AGAIN : 'won'), { policy: quick(0), otherwise: () => 'lost' })).toBe('won');
  });

  it('the asynchronous loops wait by timers: the event loop goes on meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    let runs = 0;
    const r = await untilWonAsync(async () => (++runs < 4 ? LOST : 'won'), { policy: quick(5, { startMs: 10, maxMs: 10 }), gaveUp: () => new HandoffError('concurrent', 'x', 'x') });
    clearInterval(ticker);
    expect(r).toBe('won');
    expect(ticks).toBeGreaterThan(3);
    expect(await retryingAsync(async (wait, attempt) => (attempt < 2 && wait(quick(5)) ? AGAIN : attempt))).toBe(2);
  });
});
