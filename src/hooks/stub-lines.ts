// The hook stub's (git-hooks/stub.sh) lines taken from TypeScript: the session trailer's key and the session
// variables. `install --hooks` writes them into each stub it installs, and scripts/build.mjs into the template, so
// neither is kept by hand (test/hooks/stub-facts.test.ts runs the stub under each client's variable).
import { SESSION_VARS } from '../client-names';
import { TRAILER } from '../handoff/store/document';
import { shellQuote } from '../clients/event';

/** A case-insensitive sh pattern of a trailer key. */
export const caseGlob = (key: string) => [...key].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch)).join('');

/** The variables the stub reads a session id from, in the order node does (src/handoff/state/session.ts). */
export const STUB_SESSION_VARS: readonly string[] = ['GIT_HANDOFF_SESSION', ...SESSION_VARS.map(([v]) => v)];

export const KEY_LINE = /^SESSION_KEY=.*$/m;
export const SESSION_LINE = /^session=.*$/m;

/** The stub's lines, each replacing the one its pattern finds. */
export const stubLines = (): ReadonlyArray<readonly [RegExp, string]> => [
  [KEY_LINE, `SESSION_KEY=${shellQuote(caseGlob(TRAILER.session))}`],
  // the first variable set and not empty: ${A:-${B:-$C}}
  [SESSION_LINE, `session=${STUB_SESSION_VARS.slice(0, -1).reduceRight((inner, v) => `\${${v}:-${inner}}`, `$${STUB_SESSION_VARS.at(-1)}`)}`],
];

/** A stub's text with its generated lines put in. */
export const withStubLines = (text: string): string => stubLines().reduce((t, [re, line]) => t.replace(re, () => line), text);
