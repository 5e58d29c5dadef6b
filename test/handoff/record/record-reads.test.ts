// The refs a command reads, compared with the last verified record: only the shelves of the refs read (a listing of
// one branch reads that branch's), so a ref rewritten in place is reported by the next command that reads it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMessage } from '../../../src/handoff/store/document';
import { handoffRef } from '../../../src/handoff/store/names';
import { makeRepo } from '../../helpers/repo';
import { ok } from '../../sync/world';

describe('a listing of many handoffs, one rewritten in place', () => {
  it('`list --all` reports the one ref moved, a listing of another branch does not; recover restores it', async () => {
    const repo = makeRepo({ commit: true });
    const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
    // 80 handoffs on 4 branches in one fast-import, as a long-lived repository has them
    const parts: string[] = [];
    for (let i = 0; i < 80; i++) {
      const branch = `team-${i % 4}`;
      const topic = `topic-${i}-notes`;
      const body = `# ${topic}\n\nitem ${i}\n`;
      const message = buildMessage({ topic, body, session: `sess-${i % 5}`, branch, head, client: 'cli' });
      parts.push(`commit ${handoffRef(branch, topic)}\ncommitter T <t@example.com> ${1_750_000_000 + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}\nM 100644 inline handoff.md\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
    repo.git(['fast-import', '--quiet'], { input: parts.join('') });
    expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
    expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
    // topic-41-notes of team-1 moved to topic-45-notes' commit: same size, inode and mtime
    const ref = handoffRef('team-1', 'topic-41-notes');
    const file = path.join(repo.dir, '.git', ref);
    const was = readFileSync(file, 'utf8').trim();
    const other = repo.git(['rev-parse', handoffRef('team-1', 'topic-45-notes')]).stdout.trim();
    const stamp = path.join(repo.home, 'stamp');
    execFileSync('touch', ['-r', file, stamp]);
    writeFileSync(file, `${other}\n`);
    execFileSync('touch', ['-r', stamp, file]);
    const moved = new RegExp(`${ref} was moved to ${other.slice(0, 12)}, a history that does not contain its recorded version ${was.slice(0, 12)}`);
    // another branch's listing (20 refs: its own shelf) reads none of it
    expect((await ok(repo, ['list', '--branch', 'team-2'])).stderr).toBe('');
    // the whole listing reads it
    expect((await ok(repo, ['list', '--all', '--json'])).stderr).toMatch(moved);
    await ok(repo, ['recover']);
    expect(repo.git(['rev-parse', ref]).stdout.trim()).toBe(was);
    expect((await ok(repo, ['list', '--all'])).stderr).toBe('');
  });
});
