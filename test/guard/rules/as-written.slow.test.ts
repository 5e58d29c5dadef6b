// src/guard/rules/as-written.ts: a refusal quotes the refused step as the tool call wrote it — a substitution at the
// end of the step, and a subshell around it, stay whole.
import { describe, expect, it } from 'vitest';
import { denial, guard, payload } from '../helpers';
import { makeRepo } from '../../helpers/repo';

describe('a refusal quotes the refused step as written (item 3)', () => {
  it('a substitution at the end of the step, and a subshell around it, stay whole', async () => {
    const repo = makeRepo({ commit: true });
    for (const [command, quoted] of [
      ['git update-ref refs/handoffs/main/x $(git rev-parse HEAD)', '`git update-ref refs/handoffs/main/x $(git rev-parse HEAD)`'],
      ['(git update-ref refs/handoffs/main/x $(git rev-parse HEAD))', '`git update-ref refs/handoffs/main/x $(git rev-parse HEAD)`'],
      ['echo a && (cd . ; git update-ref -d refs/handoffs/main/x) || true', '`cd . ; git update-ref -d refs/handoffs/main/x`'],
    ]) {
      const why = denial(await guard(repo, payload(repo, 'claude-code/pre-tool-use-bash.json', { tool_input: { command } })));
      expect(why, command).toContain(quoted);
    }
  });
});
