// Replace refs and grafts change nothing git-handoff reads, and are refused (src/handoff/store/ref-updates.ts replaceRefusals for the
// reference-transaction hook and the server, src/guard/rules/refs.ts for the guard): every way to make or fetch one
// through each client's payload shape in-process, one planted past the guard, the hook, and a push to a server.
import { describe, expect, it } from 'vitest';
import { foreignWorld } from '../../guard/world';
import { refOf } from '../../helpers/repo';
import { ME, OTHER } from '../../guard/helpers';
import { expectAllNotCursor as expectAll } from '../../guard/verdicts';

const REF = 'refs/handoffs/main/auth-refactor';

describe('7. replace refs and grafts change nothing git-handoff reads, and are refused', () => {
  it('the guard refuses every way to make or fetch a replace ref or a graft', async () => {
    const repo = await foreignWorld();
    const tip = refOf(repo, REF)!;
    await expectAll(
      repo,
      [
        `git update-ref refs/replace/${tip} HEAD`,
        `git update-ref refs/replace/$(git rev-parse ${REF}) HEAD`,
        `git replace ${tip} HEAD`,
        `git replace --graft ${tip}`,
        `git push origin HEAD:refs/replace/${tip}`,
        `git fetch origin '+refs/replace/*:refs/replace/*'`,
        `git config remote.origin.fetch '+refs/replace/*:refs/replace/*'`,
        `echo ${tip} > .git/refs/replace/${tip}`,
        `echo "${tip}" >> .git/info/grafts`,
      ],
      'deny',
    );
    await expectAll(repo, ['git replace -l', `git replace -d ${tip}`, 'git log --no-replace-objects -1'], 'allow');
  });

  it('a replace ref or GIT_REPLACE_REF_BASE planted past the guard does not let another session write as owner', async () => {
    const repo = await foreignWorld();
    const tip = refOf(repo, REF)!;
    // a commit that claims ME as the author of the handoff, put in place of OTHER's tip by a replace ref
    const tree = repo.git(['rev-parse', `${tip}^{tree}`]).stdout.trim();
    const fake = repo.git(['commit-tree', tree, '-m', `handoff: auth-refactor\n\nClaude-Session-Id: ${ME}`]).stdout.trim();
    repo.git(['update-ref', `refs/replace/${tip}`, fake]);
    repo.git(['update-ref', `refs/heads/${tip}`, fake]);
    for (const env of [{}, { GIT_REPLACE_REF_BASE: 'refs/heads/' }]) {
      const w = await repo.cli(['write', 'auth-refactor', '-m', 'mine now'], { env: { GIT_HANDOFF_SESSION: ME, ...env } });
      expect(w.exitCode, String(w.stderr)).toBe(3);
      expect(refOf(repo, REF)).toBe(tip);
    }
  });

  it('the reference-transaction hook refuses a replace ref of a handoff commit', async () => {
    const repo = await foreignWorld();
    expect((await repo.cli(['install', '--hooks'])).exitCode).toBe(0);
    const tip = refOf(repo, REF)!;
    const r = repo.git(['replace', '-f', tip, 'HEAD'], { allowFail: true });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/another commit in place of/);
    expect(repo.git(['replace', '-l']).stdout.trim()).toBe('');
    // a replace ref of an ordinary commit is no concern of git-handoff's
    const head = repo.git(['rev-parse', 'HEAD~1']).stdout.trim();
    expect(repo.git(['replace', '-f', head, 'HEAD'], { allowFail: true }).status).toBe(0);
  });
});

describe('7. replace refs, on the server (install --server)', () => {
  it('a pushed replace ref of a handoff commit is refused; one of an ordinary commit is not', async () => {
    const { makeWorld, ok } = await import('../../sync/world');
    const { a, bare } = await makeWorld('file', { server: true });
    await ok(a, ['write', 'auth-refactor', '-m', 'their note', '--session', OTHER]);
    await ok(a, ['push']);
    const tip = a.git(['rev-parse', REF]).stdout.trim();
    // made past every local check (no hooks), as a refused session would
    a.git(['-c', 'core.hooksPath=/dev/null', 'replace', '-f', tip, 'HEAD']);
    const r = a.git(['push', '--no-verify', 'origin', `refs/replace/${tip}`], { allowFail: true });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/refused refs\/replace\/[0-9a-f]+: it would show another commit in place of/);
    expect(bare.git(['for-each-ref', 'refs/replace/']).stdout.trim()).toBe('');
    const plain = a.git(['rev-parse', 'HEAD']).stdout.trim();
    a.git(['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--allow-empty', '-m', 'another']);
    a.git(['-c', 'core.hooksPath=/dev/null', 'replace', '-f', plain, 'HEAD']);
    expect(a.git(['push', '--no-verify', 'origin', `refs/replace/${plain}`], { allowFail: true }).status).toBe(0);
  });
});
