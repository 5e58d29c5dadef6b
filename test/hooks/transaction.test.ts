// reference-transaction under real amend, rebase, reset and update-ref: handoff refs keep the invariant
// whoever moves them, and an agent cannot drop another session's commits from a branch.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refOf } from '../helpers/repo';
import { A, B, gitAs, head, hookedRepo, ledgerWrite, messageOf } from './helpers';

const REF = 'refs/handoffs/main/auth-refactor';

describe('branch rewrites by a known session', () => {
  it("a session amending its own commit is allowed; amending another's is refused before anything moves", async () => {
    const repo = await hookedRepo();
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A first']).status).toBe(0);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '--amend', '-m', 'A first, reworded']).status).toBe(0);
    expect(messageOf(repo)).toContain(`Claude-Session-Id: ${A}`);
    const before = head(repo);
    // with -m, prepare-commit-msg sees a plain message: the branch update is where the amend is caught
    const r = gitAs(repo, B, ['commit', '--allow-empty', '--amend', '-m', 'B rewrites A']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('would drop 1 commit of another session');
    expect(r.stderr).toContain(`commit ${before.slice(0, 12)} by session aaaaaaaa`);
    expect(r.stderr).toContain('fatal: ref updates aborted by hook');
    expect(head(repo)).toBe(before);
    expect(refOf(repo, 'refs/heads/main')).toBe(before);
  });

  it("a rebase over another session's commits is refused: the branch stays, and rebase --abort restores HEAD", async () => {
    const repo = await hookedRepo();
    repo.git(['checkout', '-q', '-b', 'feature']);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A on feature']).status).toBe(0);
    const featureTip = head(repo);
    repo.git(['checkout', '-q', 'main']);
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person on main']).status).toBe(0);
    repo.git(['checkout', '-q', 'feature']);
    const r = gitAs(repo, B, ['rebase', 'main']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`moving refs/heads/feature from ${featureTip.slice(0, 12)}`);
    expect(r.stderr).toContain('git rebase --abort');
    expect(refOf(repo, 'refs/heads/feature')).toBe(featureTip);
    gitAs(repo, B, ['rebase', '--abort']);
    expect(head(repo)).toBe(featureTip);
    // the owner may rebase its own work (and a person's, which gets no trailer from the rebase)
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person on feature']).status).toBe(0);
    const own = gitAs(repo, A, ['rebase', 'main']);
    expect(own.status, own.stderr).toBe(0);
    expect(refOf(repo, 'refs/heads/feature')).not.toBe(featureTip);
    expect(messageOf(repo)).toBe('person on feature\n\n');
    expect(messageOf(repo, 'HEAD~1')).toBe(`A on feature\n\nClaude-Session-Id: ${A}\nHandoff-Client: cli\n\n`);
  });

  it("reset --hard and update-ref over another session's commits are refused; over a person's or one's own, allowed", async () => {
    const repo = await hookedRepo();
    const base = head(repo);
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A work']).status).toBe(0);
    const tip = head(repo);
    for (const args of [['reset', '-q', '--hard', base], ['update-ref', 'refs/heads/main', base]]) {
      const r = gitAs(repo, B, args);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`commit ${tip.slice(0, 12)} by session aaaaaaaa`);
      expect(head(repo)).toBe(tip);
    }
    expect(gitAs(repo, A, ['reset', '-q', '--hard', base]).status).toBe(0);
    expect(gitAs(repo, B, ['commit', '-q', '--allow-empty', '-m', 'person-free']).status).toBe(0);
    expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', 'person']).status).toBe(0);
    // B drops the person's commit and its own: allowed
    expect(gitAs(repo, B, ['reset', '-q', '--hard', base]).status).toBe(0);
    expect(head(repo)).toBe(base);
    // a person is never refused for ownership
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A again']).status).toBe(0);
    expect(gitAs(repo, null, ['reset', '-q', '--hard', base]).status).toBe(0);
  });
});

describe('handoff refs', () => {
  it('git handoff write, takeover and archive work through the hook; raw rewrites and deletions are refused', async () => {
    const repo = await hookedRepo();
    expect((await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1'])).exitCode).toBe(0);
    const v1 = refOf(repo, REF)!;
    expect((await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v2'])).exitCode).toBe(0);
    const v2 = refOf(repo, REF)!;
    // refused whoever runs it: a person, an agent, with or without an old value
    for (const [who, args] of [
      [null, ['update-ref', REF, v1]],
      [A, ['update-ref', REF, v1, v2]],
      [null, ['update-ref', '-d', REF]],
      [B, ['update-ref', '-d', REF, v2]],
    ] as const) {
      const r = gitAs(repo, who, [...args]);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr).toContain('would break the ownership invariant');
      expect(refOf(repo, REF)).toBe(v2);
    }
    // a foreign version on top, made by hand without a takeover trailer
    const tree = repo.git(['rev-parse', `${v2}^{tree}`]).stdout.trim();
    const forged = repo.git(['commit-tree', tree, '-p', v2, '-m', `handoff(auth-refactor): mine now\n\nClaude-Session-Id: ${B}`]).stdout.trim();
    const r = gitAs(repo, B, ['update-ref', REF, forged, v2]);
    expect(r.stderr).toContain(`adds to session aaaaaaaa's handoff without a takeover`);
    expect(refOf(repo, REF)).toBe(v2);
    // the same, with a takeover trailer naming the owner, keeps the invariant
    const taken = repo.git(['commit-tree', tree, '-p', v2, '-m', `handoff(auth-refactor): mine now\n\nClaude-Session-Id: ${B}\nHandoff-Takeover-From: ${A}`]).stdout.trim();
    expect(gitAs(repo, B, ['update-ref', REF, taken, v2]).status).toBe(0);
    // the CLI's own takeover and archive go through
    expect((await repo.cli(['write', 'auth-refactor', '--session', A, '--take-over', '--reason', 'back', '-m', 'v4'])).exitCode).toBe(0);
    const arch = await repo.cli(['archive', 'auth-refactor', '--session', A, '--json']);
    expect(arch.exitCode, String(arch.stderr)).toBe(0);
    expect(refOf(repo, REF)).toBeNull();
    const archivedAs = JSON.parse(String(arch.stdout)).archivedAs;
    const kept = refOf(repo, archivedAs);
    // the archive is kept: no raw deletion or move of it, but restore brings it back
    expect(gitAs(repo, null, ['update-ref', '-d', archivedAs]).stderr).toContain('archived handoffs are kept');
    expect(gitAs(repo, null, ['update-ref', archivedAs, v1]).stderr).toContain('an archive entry never moves');
    expect(refOf(repo, archivedAs)).toBe(kept);
    const back = await repo.cli(['restore', archivedAs, '--session', A]);
    expect(back.exitCode, String(back.stderr)).toBe(0);
    expect(repo.git(['rev-parse', `${REF}^`]).stdout.trim()).toBe(kept);
    expect(refOf(repo, archivedAs)).toBe(kept);
  });

  it('a deletion paired with its archive ref in one transaction passes; paired with the wrong oid it does not', async () => {
    const repo = await hookedRepo();
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1']);
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v2']);
    const tip = refOf(repo, REF)!;
    const parent = repo.git(['rev-parse', `${tip}~1`]).stdout.trim();
    const archived = `refs/handoff-archive/main/auth-refactor/1700000000-${tip.slice(0, 12)}`;
    const tx = (oid: string) =>
      repo.git(['update-ref', '--stdin'], { allowFail: true, input: `start\ncreate ${archived} ${oid}\ndelete ${REF} ${tip}\nprepare\ncommit\n` });
    const r = tx(parent);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('deleting a handoff is done only by archiving it');
    expect(refOf(repo, REF)).toBe(tip);
    expect(refOf(repo, archived)).toBeNull();
    // an entry at the tip itself records nobody (issue 13); an archive version by the owner on top of it passes
    const bare = tx(tip);
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain('records nobody');
    const entry = repo.git(['commit-tree', `${tip}^{tree}`, '-p', tip], { input: `handoff(auth-refactor): archived\n\nClaude-Session-Id: ${A}\n` }).stdout.trim();
    expect(tx(entry).status).toBe(0);
    expect(refOf(repo, REF)).toBeNull();
    expect(refOf(repo, archived)).toBe(entry);
  });

  it('GIT_HANDOFF_BYPASS=1 lets a person through and appends to audit.jsonl', async () => {
    const repo = await hookedRepo();
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1']);
    const r = gitAs(repo, null, ['update-ref', '-d', REF], { GIT_HANDOFF_BYPASS: '1' });
    expect(r.status, r.stderr).toBe(0);
    expect(refOf(repo, REF)).toBeNull();
    const lines = readFileSync(path.join(repo.dir, '.git', 'handoff', 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ hook: 'reference-transaction', session: null, refused: expect.stringContaining('ownership invariant') });
  });
});

describe('SHA-256 repositories', () => {
  it('the same checks with 64-digit object ids', async () => {
    const repo = await hookedRepo({ init: ['--object-format=sha256'] });
    expect(gitAs(repo, A, ['commit', '-q', '--allow-empty', '-m', 'A']).status).toBe(0);
    const tip = head(repo);
    expect(tip).toHaveLength(64);
    expect(gitAs(repo, B, ['commit', '--allow-empty', '--amend', '-m', 'B']).stderr).toContain(`commit ${tip.slice(0, 12)} by session aaaaaaaa`);
    expect(head(repo)).toBe(tip);
    await repo.cli(['write', 'auth-refactor', '--session', A, '-m', 'v1']);
    expect(gitAs(repo, null, ['update-ref', '-d', REF]).status).not.toBe(0);
    expect((await repo.cli(['archive', 'auth-refactor', '--session', A])).exitCode).toBe(0);
    expect(refOf(repo, REF)).toBeNull();
  });
});

/** A person's notes.txt, then session A's commit adding a line to it. */
async function aAddsALine() {
  const repo = await hookedRepo();
  const file = path.join(repo.dir, 'notes.txt');
  writeFileSync(file, 'base\n');
  expect(gitAs(repo, null, ['add', 'notes.txt']).status).toBe(0);
  expect(gitAs(repo, null, ['commit', '-q', '-m', 'base']).status).toBe(0);
  writeFileSync(file, 'base\nA line\n');
  expect(gitAs(repo, A, ['commit', '-q', '-am', 'A adds a line']).status).toBe(0);
  return { repo, file };
}

describe('a refused reset --hard (issue 15 bug 2)', () => {
  it('says the files were already reset and how to put them back; the next commit over them cannot revert A silently', async () => {
    const { repo, file } = await aAddsALine();
    const tip = head(repo);
    // sessions known only by GIT_HANDOFF_SESSION (no guard, no ledger): the refused reset itself leaves the note
    const r = gitAs(repo, B, ['reset', '--hard', 'HEAD~1']);
    expect(r.status).not.toBe(0);
    expect(head(repo)).toBe(tip);
    // git reset the files before the hook could refuse; the refusal says so and gives the command
    expect(readFileSync(file, 'utf8')).toBe('base\n');
    expect(r.stderr).toContain('git had already reset the index and the working tree');
    expect(r.stderr).toContain('notes.txt');
    expect(r.stderr).toContain('git reset --hard HEAD');
    // B's next ordinary commit over that path would take A's line back: refused, with the way to keep it
    expect(gitAs(repo, B, ['add', 'notes.txt']).status).toBe(0);
    const c = gitAs(repo, B, ['commit', '-m', 'B tidies']);
    expect(c.status).not.toBe(0);
    expect(c.stderr).toContain(`commit ${tip.slice(0, 12)} by session aaaaaaaa (cli): notes.txt`);
    expect(head(repo)).toBe(tip);
    const fix = /keep their work: (git restore [^\n]*?) \(then/.exec(c.stderr)![1];
    expect(gitAs(repo, B, fix.split(' ').slice(1)).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('base\nA line\n');
    // the refusal's other command: the printed reset puts the files back too
    writeFileSync(file, 'base\n');
    expect(gitAs(repo, B, ['reset', '--hard', 'HEAD']).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('base\nA line\n');
    // B's own change on top goes through
    writeFileSync(file, 'base\nA line\nB line\n');
    expect(gitAs(repo, B, ['commit', '-q', '-am', 'B adds']).status).toBe(0);
    // a person may commit the same content: ownership is never held against a person
    writeFileSync(file, 'base\nB line\n');
    expect(gitAs(repo, null, ['commit', '-q', '-am', 'person edits']).status).toBe(0);
  });
});

describe('a refused mixed reset over a commit that added a file', () => {
  it('says only the index was reset (the file is still on disk, untracked) and gives git reset -q HEAD', async () => {
    const repo = await hookedRepo();
    writeFileSync(path.join(repo.dir, 'snew'), 's\n');
    expect(gitAs(repo, A, ['add', 'snew']).status).toBe(0);
    expect(gitAs(repo, A, ['commit', '-q', '-m', 'A adds snew']).status).toBe(0);
    const tip = head(repo);
    const r = gitAs(repo, B, ['reset', '-q', 'HEAD~1']);
    expect(r.status).not.toBe(0);
    expect(head(repo)).toBe(tip);
    expect(readFileSync(path.join(repo.dir, 'snew'), 'utf8')).toBe('s\n');
    expect(r.stderr).toContain('git had already reset the index to');
    expect(r.stderr).toContain('the files on disk are unchanged');
    expect(r.stderr).not.toContain('git reset --hard HEAD');
    // the printed step puts the index back as HEAD has it
    expect(gitAs(repo, B, ['reset', '-q', 'HEAD']).status).toBe(0);
    expect(repo.git(['status', '--porcelain']).stdout).toBe('');
  });
});

describe('pre-commit and a live session', () => {
  it("refuses staged content that takes back a live session's commit, with no reset before it", async () => {
    const { repo, file } = await aAddsALine();
    // A is live here (the guard's ledger, other paths); B wrote notes.txt last
    ledgerWrite(repo, A, ['other.txt']);
    ledgerWrite(repo, B, ['notes.txt']);
    writeFileSync(file, 'base\n');
    const c = gitAs(repo, B, ['commit', '-am', 'B tidies']);
    expect(c.status).not.toBe(0);
    expect(c.stderr).toContain('take back a commit of another session');
    // a person is never refused for ownership
    expect(gitAs(repo, null, ['commit', '-q', '-am', 'a person takes the line back']).status).toBe(0);
  });
});

describe('maintenance with the hooks installed', () => {
  it('git gc, pack-refs --all and the purge SECURITY.md gives pass with handoffs; a real deletion of a packed one is still refused', async () => {
    const repo = await hookedRepo();
    expect((await repo.cli(['write', 'auth-refactor', '-m', 'one'], { env: { GIT_HANDOFF_SESSION: A } })).exitCode).toBe(0);
    const tip = refOf(repo, REF)!;
    const pack = repo.git(['pack-refs', '--all'], { allowFail: true });
    expect(pack.status, pack.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, '.git', 'packed-refs'), 'utf8')).toContain(`${tip} ${REF}`);
    expect((await repo.cli(['write', 'auth-refactor', '-m', 'two'], { env: { GIT_HANDOFF_SESSION: A } })).exitCode).toBe(0);
    for (const args of [['gc', '-q'], ['reflog', 'expire', '--expire=now', '--all'], ['gc', '-q', '--prune=now']]) {
      const r = repo.git(args, { allowFail: true });
      expect(r.status, `git ${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const packed = refOf(repo, REF)!;
    expect(repo.git(['rev-list', '--count', REF]).stdout.trim()).toBe('2');
    // packed, not deleted: a deletion of the packed ref still meets the check
    const del = repo.git(['update-ref', '-d', REF], { allowFail: true });
    expect(del.status).not.toBe(0);
    expect(del.stderr).toContain('deleting a handoff is done only by archiving it');
    const del2 = repo.git(['update-ref', '-d', REF, packed], { allowFail: true });
    expect(del2.status).not.toBe(0);
    expect(refOf(repo, REF)).toBe(packed);
    expect(repo.git(['fsck', '--no-progress']).status).toBe(0);
  });
});
