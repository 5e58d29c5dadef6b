// The hook stub's (git-hooks/stub.sh) lines taken from TypeScript, so none is kept by hand: `install --hooks` and the
// build write them.
import path from 'node:path';
import { SESSION_ID_VARS } from '../clients/names';
import { TRAILER } from '../handoff/store/document';
import { shellQuote } from '../terminal-text';
import { SESSION_RE } from '../handoff/state/session';
import { claimsMarker } from '../handoff/state/claims-marker';
import { CHECKED_REFS } from './transaction';
import { DECIDED_PREFIX, STUB_ARG } from '../git/hook-stub';

/** A case-insensitive sh pattern of a trailer key. */
export const caseGlob = (key: string) => [...key].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch)).join('');

export const KEY_LINE = /^SESSION_KEY=.*$/m;
export const SESSION_LINE = /^session=.*$/m;
export const VALID_LINE = /^SESSION_BAD=.*$/m;
export const CHECKED_LINE = /^checked\(\) .*$/m;
export const NAMES_LINE = /^CLAIMS_FILE=.*$/m;

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
    // the first variable set and not empty, in the order node reads them: ${A:-${B:-$C}}
    [SESSION_LINE, `session=${SESSION_ID_VARS.slice(0, -1).reduceRight((inner, v) => `\${${v}:-${inner}}`, `$${SESSION_ID_VARS.at(-1)}`)}`],
    [KEY_LINE, `SESSION_KEY=${shellQuote(caseGlob(TRAILER.session))}`],
    [VALID_LINE, `SESSION_BAD=${shellQuote(valid.bad)} SESSION_MAX=${valid.max}`],
    // an input naming one anywhere (a superset of the handler's reading: the ref field, a prefix or the whole ref)
    [CHECKED_LINE, `checked() { case $1 in ${CHECKED_REFS.map((r) => `*${shellQuote(r)}*`).join(' | ')}) return 0 ;; esac; return 1; }`],
    [NAMES_LINE, `CLAIMS_FILE=${shellQuote(under('/c', claimsMarker('/c')))} DECIDED=${shellQuote(DECIDED_PREFIX)} CURRENT=${shellQuote(STUB_ARG)}`],
  ];
};

/** A stub's text with its generated lines put in. */
export const withStubLines = (text: string): string => stubLines().reduce((t, [re, line]) => t.replace(re, () => line), text);
