// `git handoff edit` of another session's handoff: refused before the editor opens with edit --take-over as the way
// on, and a takeover while the editor was open keeps what was typed and says where.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, refOf } from '../../helpers/repo';
import { cliOk as ok } from '../helpers';

const REF = 'refs/handoffs/main/auth-refactor';

describe('edit of another session’s handoff (item 2)', () => {
  it('is refused before the editor opens, and the way on is edit --take-over', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: theirs']);
    const tip = refOf(repo, REF);
    const opened = path.join(repo.home, 'editor-opened');
    const r = await repo.cli(['edit', 'auth-refactor', '--session', 's2'], { env: { GIT_EDITOR: `touch '${opened}'; :` } });
    expect(r.exitCode).toBe(3);
    expect(existsSync(opened)).toBe(false);
    expect(String(r.stderr)).toContain('git handoff edit auth-refactor --take-over --reason "<why>"');
    expect(String(r.stderr)).not.toContain('write auth-refactor --take-over');
    expect(refOf(repo, REF)).toBe(tip);
    // with --take-over the editor opens and the version is written
    await ok(repo, ['edit', 'auth-refactor', '--session', 's2', '--take-over', '--reason', 'owner gone'], { GIT_EDITOR: `touch '${opened}'; sed -i 's/theirs/mine/'` });
    expect(existsSync(opened)).toBe(true);
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: mine');
  });

  it('a handoff taken over while the editor was open: the write is refused and what was typed is kept, the message says where', async () => {
    const repo = makeRepo({ commit: true });
    await ok(repo, ['write', 'auth-refactor', '--session', 's1', '-m', 'Goal: mine']);
    // the editor: another session takes the handoff over meanwhile, then the person types
    const editor = `'${BIN}' write auth-refactor --session s2 --take-over --reason race -m 'Goal: theirs' >/dev/null && sed -i 's/mine/typed by hand/'`;
    const r = await repo.cli(['edit', 'auth-refactor', '--session', 's1'], { env: { GIT_EDITOR: editor } });
    expect(r.exitCode).toBe(3);
    const m = /kept in (\S+) \(to write it: git handoff write auth-refactor -F \1\)/.exec(String(r.stderr));
    expect(m, String(r.stderr)).not.toBeNull();
    expect(readFileSync(m![1], 'utf8')).toBe('Goal: typed by hand\n');
    expect(await ok(repo, ['show', 'auth-refactor', '--raw'])).toBe('Goal: theirs');
  });
});
