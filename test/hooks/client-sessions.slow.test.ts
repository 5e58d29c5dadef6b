// A commit under each client's own session variable (src/clients/names.ts SESSION_VARS), through the installed hook
// stubs and real `git commit`: it gets its session trailer and its client's (Handoff-Client), and a message claiming
// another session is refused. The
// stub once read only three of the six variables, so under Copilot CLI, Qwen Code or OpenCode it saw a person.
import { describe, expect, it } from 'vitest';
import { SESSION_VARS } from '../../src/clients/names';
import { A, B, gitAs, head, hookedRepo, messageOf } from './helpers';

describe("the commit hooks under each client's session variable", () => {
  it('each: the trailers added, a claim of another session refused', async () => {
    const repo = await hookedRepo();
    for (const [variable, client] of SESSION_VARS) {
      expect(gitAs(repo, null, ['commit', '-q', '--allow-empty', '-m', `work of ${client}`], { [variable]: A }).status, variable).toBe(0);
      expect(messageOf(repo), variable).toBe(`work of ${client}\n\nClaude-Session-Id: ${A}\nHandoff-Client: ${client}\n\n`);
      const before = head(repo);
      const r = gitAs(repo, null, ['commit', '--allow-empty', '-m', `not mine\n\nClaude-Session-Id: ${B}`], { [variable]: A });
      expect(r.status, variable).toBe(1);
      expect(r.stderr, variable).toContain('claims session bbbbbbbb, but session aaaaaaaa is committing');
      expect(head(repo), variable).toBe(before);
    }
  });
});
