// mentionsHandoffRef (src/guard/rules/refs.ts) is written by hand for speed: it must answer exactly as the regular
// expression it replaced, on the spellings the rules meet and on random text made of the pieces that matter.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { quickDescribe } from '../../helpers/sets';
import { mentionsHandoffRef } from '../../../src/guard/rules/refs';

const REGEX = /(^|[\s:+^"'=])refs\/(handoff[a-z-]*|claims|notes\/handoff-reads|replace)(\/|\*|$|[\s"'])/;

quickDescribe('mentionsHandoffRef', () => {
  it('answers as the regular expression on the spellings the rules meet', () => {
    const cases = [
      'refs/handoffs/main/x', 'refs/handoffs', 'refs/handoffs/', 'refs/handoffs*', 'refs/handoffsx', 'refs/handoff', 'refs/handoff/x', 'refs/handoff-archive/a',
      'refs/handoff-archive', 'refs/handoff-archivex', 'refs/handoff-leases/w', 'refs/claims/main', 'refs/claims', 'refs/claimsx', 'refs/notes/handoff-reads',
      'refs/notes/handoff-readsx', 'refs/notes/handoff-reads/x', 'refs/replace/abc', 'refs/replace', 'refs/replaced', ':refs/handoffs/x', '+refs/handoffs/*:refs/handoffs/*',
      '^refs/handoffs/x', '"refs/handoffs/x"', "'refs/handoffs'", 'x=refs/handoffs/y', 'a refs/handoffs b', 'a\trefs/claims\tb', 'a\nrefs/replace\n', 'xrefs/handoffs/y',
      '/refs/handoffs/y', '.git/refs/handoffs/y', 'refs/heads/main', 'refs/refs/handoffs/', 'refsrefs/handoffs/', 'refs/handoffs\u00a0', '\u3000refs/claims',
      '\ufeffrefs/replace/', 'refs/replace\u2028', 'refs/handoffs\u200b', '', 'refs/', 'refs', 'x refs/heads refs/handoffs/a', 'refs/handoffs-x refs/claims/y',
      'git update-ref -d refs/handoffs/main/auth-refactor', 'git update-ref -d refs/handoff-record', 'refs/handoff-remotes/origin/handoffs/main/x', 'refs/handoff-outgoing/o/x', 'refs/handoff-dropped/a', 'git push origin :refs/handoffs/main/x', 'git fetch origin +refs/*:refs/*',
    ];
    for (const s of cases) expect(mentionsHandoffRef(s), JSON.stringify(s)).toBe(REGEX.test(s));
  });

  it('answers as the regular expression on random text of refs, names, separators and spaces', () => {
    const piece = fc.constantFrom('refs/', 'refs', 'handoffs', 'handoff', '-archive', '-leases', 'claims', 'notes/', 'handoff-reads', 'replace', 'heads/', '/', '*', ':', '+', '^', '"', "'", '=', ' ', '\t', '\n', '\u00a0', '\u2029', 'x', '-', '.', 's', '$');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (ps) => {
        const s = ps.join('');
        expect(mentionsHandoffRef(s), JSON.stringify(s)).toBe(REGEX.test(s));
      }),
      { numRuns: 20000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        expect(mentionsHandoffRef(s), JSON.stringify(s)).toBe(REGEX.test(s));
      }),
      { numRuns: 5000 },
    );
  });
});
