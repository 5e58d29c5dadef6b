// What install --agent advises committing: the files that wire everyone who clones, never a client's personal file
// (Augment's .augment/settings.local.json), which each person makes for their own clone.
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo';

describe('install --agent: the commit advice', () => {
  it("names Augment's settings.local.json as personal, with the command each person runs, and not among the files to commit", async () => {
    const repo = makeRepo({ commit: true });
    const r = await repo.cli(['install', '--agent', 'augment']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    // one line per message: a long one is wrapped, its further lines indented by two
    const lines = String(r.stdout).replace(/\n  /g, ' ').split('\n');
    const commit = lines.filter((l) => l.startsWith('commit '));
    expect(commit).toHaveLength(1);
    expect(commit[0]).toMatch(/^commit \.augment\/hooks\/git-handoff-guard\.sh, AGENTS\.md to wire everyone/);
    expect(lines).toContain(".augment/settings.local.json is personal (this clone's, by its name): do not commit it; each person wires their own clone with `git handoff install --agent augment`");
    // the command it names wires a clone: the file comes back as it was
    const again = await repo.cli(['install', '--agent', 'augment']);
    expect(String(again.stdout)).toContain('.augment/settings.local.json: already wired');
  });
});
