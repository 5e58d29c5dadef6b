// A session's commit whose message claims another session, however git came by the message (--trailer, -C/-c/
// --reuse-message of the other's commit, -F, a cherry-pick carrying the trailer, a merge's -m), is refused by
// prepare-commit-msg, which --no-verify does not skip and the sequencer runs; commit-msg refuses it too.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { quickDescribe } from '../helpers/sets';
import { A, B, gitAs, head, hookedRepo, messageOf } from './helpers';

quickDescribe("a message claiming another session's commit", () => {
  it('is refused whichever way git came by it, --no-verify too; own trailer and a revert pass', async () => {
    const repo = await hookedRepo();
    repo.write('a.txt', 'a\n');
    repo.git(['add', '-A']);
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'A work']).status).toBe(0);
    const theirs = head(repo);
    repo.git(['checkout', '-q', '-b', 'x']);
    repo.write('b.txt', 'b\n');
    repo.git(['add', '-A']);
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'A on x']).status).toBe(0);
    const onX = head(repo);
    repo.git(['checkout', '-q', 'main']);
    const msg = path.join(repo.dir, '..', 'forged-msg');
    writeFileSync(msg, `mine\n\nClaude-Session-Id: ${A}\n`);
    const attempts: string[][] = [
      ['commit', '--no-verify', '--allow-empty', '-m', 'x', '--trailer', `Claude-Session-Id: ${A}`],
      ['commit', '--allow-empty', '-m', 'x', '--trailer', `Claude-Session-Id: ${A}`],
      ['commit', '--no-verify', '--allow-empty', '-C', theirs],
      ['commit', '--no-verify', '--allow-empty', `--reuse-message=${theirs}`],
      ['commit', '--no-verify', '--allow-empty', '-c', theirs],
      ['commit', '--no-verify', '--allow-empty', '-F', msg],
      ['cherry-pick', onX],
      ['merge', '--no-ff', '--no-verify', '-m', `m\n\nClaude-Session-Id: ${A}`, 'x'],
    ];
    for (const args of attempts) {
      const r = gitAs(repo, B, args, { GIT_EDITOR: 'true' });
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toContain('claims session aaaaaaaa, but session bbbbbbbb is committing');
      expect(head(repo), args.join(' ')).toBe(theirs);
      repo.git(['reset', '-q', '--hard', theirs]);
      repo.git(['cherry-pick', '--abort'], { allowFail: true });
      repo.git(['merge', '--abort'], { allowFail: true });
    }
    // its own trailer, a merge of A's branch with git's message and a revert of A's commit pass
    expect(gitAs(repo, B, ['commit', '-q', '--no-verify', '--allow-empty', '-m', 'y', '--trailer', `Claude-Session-Id: ${B}`]).status).toBe(0);
    expect(gitAs(repo, B, ['merge', '-q', '--no-ff', '--no-edit', 'x']).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${B}`);
    expect(gitAs(repo, B, ['revert', '--no-edit', theirs]).status).toBe(0);
    // a person may still reuse a session's message
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-C', theirs]).status).toBe(0);
  });
});
