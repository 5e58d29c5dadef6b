// src/install/agents.ts guardCommand: the command a client's hook runs, through the sh front or (a wiring of files,
// front=false) node's guard itself, with a given launcher quoted and its slashes forward.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardCommand } from '../../src/install/agents';

describe('guardCommand', () => {
  it('runs the sh front on PATH by default, node guard itself without the front', () => {
    expect(guardCommand(undefined, 'claude-code')).toBe('git-handoff-guard --client=claude-code');
    expect(guardCommand('git-handoff', 'kiro', false)).toBe('git-handoff guard --client=kiro');
    expect(guardCommand('git handoff', 'kiro', false)).toBe('git handoff guard --client=kiro');
    expect(guardCommand('git handoff', 'claude-code')).toBe('git handoff guard --client=claude-code');
  });

  it('quotes a launcher, forward slashes, and takes its sibling front only where the front serves the client', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'launcher-'));
    const launcher = path.join(dir, 'git-handoff');
    expect(guardCommand(launcher, 'claude-code')).toBe(`"${launcher}" guard --client=claude-code`);
    writeFileSync(`${launcher}-guard`, '');
    expect(guardCommand(launcher, 'claude-code')).toBe(`"${launcher}-guard" --client=claude-code`);
    expect(guardCommand(launcher, 'kiro', false)).toBe(`"${launcher}" guard --client=kiro`);
    expect(guardCommand(`${launcher}-guard`, 'kiro', false)).toBe(`"${launcher}" guard --client=kiro`);
    expect(guardCommand('"C:\\tools\\git-handoff-guard"', 'kiro', false)).toBe('"C:/tools/git-handoff" guard --client=kiro');
    expect(guardCommand('C:\\tools\\git-handoff-guard', 'claude-code')).toBe('"C:/tools/git-handoff-guard" --client=claude-code');
  });
});
