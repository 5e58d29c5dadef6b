// The hook stub's (git-hooks/stub.sh) lines taken from TypeScript: the session trailer's key and the session
// variables, the refs and state files its checks name. `install --hooks` writes them into each stub it installs, and scripts/build.mjs into the template, so
// neither is kept by hand (test/hooks/stub-facts.test.ts runs the stub under each client's variable).
import { SESSION_VARS } from '../client-names';
import { TRAILER } from '../handoff/store/document';
import { shellQuote } from '../clients/event';
import { SESSION_RE } from '../handoff/state/session';
import path from 'node:path';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, NOTES_REF } from '../handoff/store/names';
import { REPLACE_PREFIX } from '../handoff/store/replace-refs';
import { claimsMarker } from '../handoff/claims/marker';
import { ledgerDir } from '../handoff/state/ledger';
import { refusedResetFile } from './refusal';

/** A case-insensitive sh pattern of a trailer key. */
export const caseGlob = (key: string) => [...key].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch)).join('');

/** The variables the stub reads a session id from, in the order node does (src/handoff/state/session.ts). */
export const STUB_SESSION_VARS: readonly string[] = ['GIT_HANDOFF_SESSION', ...SESSION_VARS.map(([v]) => v)];

export const KEY_LINE = /^SESSION_KEY=.*$/m;
export const SESSION_LINE = /^session=.*$/m;
export const TRAILER_LINE = /^TRAILER_KEY=.*$/m;
export const VALID_LINE = /^SESSION_BAD=.*$/m;
export const NAMES_LINE = /^HANDOFF_REFS=.*$/m;

/** `file` relative to `dir`, with forward slashes (a path under a git directory, as the stub joins it). */
const under = (dir: string, file: string) => path.relative(dir, file).split(path.sep).join('/');

/** SESSION_RE as the stub tests it: a character class (its complement as a sh pattern) and a greatest length. */
function sessionShape(): { bad: string; max: number } {
  const m = /^\^\[([^\]]+)\]\{1,(\d+)\}\$$/.exec(SESSION_RE.source);
  if (!m) throw new Error(`stub-lines: SESSION_RE is no longer one class and a length (${SESSION_RE.source}): teach the stub its new shape`);
  return { bad: `[!${m[1]}]`, max: Number(m[2]) };
}

/** The stub's lines, each replacing the one its pattern finds. */
export const stubLines = (): ReadonlyArray<readonly [RegExp, string]> => {
  const valid = sessionShape();
  return [
    [KEY_LINE, `SESSION_KEY=${shellQuote(caseGlob(TRAILER.session))}`],
    // the first variable set and not empty: ${A:-${B:-$C}}
    [SESSION_LINE, `session=${STUB_SESSION_VARS.slice(0, -1).reduceRight((inner, v) => `\${${v}:-${inner}}`, `$${STUB_SESSION_VARS.at(-1)}`)}`],
    // the trailer as prepare-commit-msg adds it, and a valid id (src/handoff/state/session.ts SESSION_RE)
    [TRAILER_LINE, `TRAILER_KEY=${shellQuote(TRAILER.session)}`],
    [VALID_LINE, `SESSION_BAD=${shellQuote(valid.bad)} SESSION_MAX=${valid.max}`],
    // the refs the transaction handler checks (src/hooks/transaction.ts), the state pre-commit's handler reads: the
    // claims marker and the ledger under the common dir, a refused reset's note in the worktree's git dir
    [
      NAMES_LINE,
      [
        ['HANDOFF_REFS', HANDOFF_PREFIX],
        ['ARCHIVE_REFS', ARCHIVE_PREFIX],
        ['NOTES_REF', NOTES_REF],
        ['REPLACE_REFS', REPLACE_PREFIX],
        ['CLAIMS_FILE', under('/c', claimsMarker('/c'))],
        ['LEDGER_DIR', under('/c', ledgerDir('/c'))],
        ['REFUSED_RESET', under('/g', refusedResetFile({ gitDir: '/g' }))],
      ]
        .map(([k, v]) => `${k}=${shellQuote(v)}`)
        .join(' '),
    ],
  ];
};

/** A stub's text with its generated lines put in. */
export const withStubLines = (text: string): string => stubLines().reduce((t, [re, line]) => t.replace(re, () => line), text);
