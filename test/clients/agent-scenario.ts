// The one scenario every newer client (Copilot CLI, OpenCode, Qwen Code) is run through, offline: a repository
// wired by `install --agent <client>` where another session owns a handoff; the model, scripted, tries to delete
// that handoff's ref from its shell, forge a handoff ref with its file tool, write the other session's handoff, and
// writes its own with no --session. What the model was sent is read off the fake API's requests.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { refOf, type TestRepo } from '../helpers/repo';
import { sentText, type ChatServer, type ScriptCall } from './chat-script';
import { wiredFor } from './deps';

export const OTHER = 'other-session-5b1e';
export const THEIR_TOPIC = 'topic-one';
export const THEIR_REF = `refs/handoffs/main/${THEIR_TOPIC}`;
export const FORGED_REF = 'refs/handoffs/main/forged';
export const OWN_TOPIC = 'own-notes';

/** A committed repository wired for `agent`, with OTHER's handoff THEIR_TOPIC on main. */
export async function preparedRepo(agent: 'copilot' | 'opencode' | 'qwen', extra: string[] = []): Promise<TestRepo> {
  const repo = await wiredFor(agent, { commit: true });
  for (const a of extra) expect((await repo.cli(['install', '--agent', a])).exitCode).toBe(0);
  if (extra.length) {
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'more wiring']);
  }
  expect((await repo.cli(['write', THEIR_TOPIC, '-m', 'their plan: keep the old parser'], { env: { GIT_HANDOFF_SESSION: OTHER } })).exitCode).toBe(0);
  return repo;
}

/** The four calls, in the client's own tool names and argument shapes. */
export function scenario(repo: TestRepo, shell: (command: string) => ScriptCall, write: (file: string, content: string) => ScriptCall): ScriptCall[] {
  const head = repo.git(['rev-parse', 'HEAD']).stdout.trim();
  return [
    shell(`git update-ref -d ${THEIR_REF}`),
    write(path.join(repo.dir, '.git', FORGED_REF), `${head}\n`),
    shell(`git handoff write ${THEIR_TOPIC} -m "my plan instead"`),
    shell(`git handoff write ${OWN_TOPIC} -m "written by the model"`),
  ];
}

/** Every Must-show of the scenario, given the client's session id as the client itself reports it. */
export function expectScenario(repo: TestRepo, api: ChatServer, session: string, client: string): void {
  const [del, forge, theirs, own] = api.results;
  const sent = sentText(api);
  // 1. the shell deletion of the other session's handoff ref: refused, the ref stays
  expect(refOf(repo, THEIR_REF), 'the handoff ref stays').not.toBeNull();
  expect(del, 'the deletion was answered').toBeDefined();
  expect(del).toMatch(/git handoff archive|refs\/handoffs/);
  // 2. the file tool's write into .git/refs/handoffs: refused, nothing written
  expect(existsSync(path.join(repo.dir, '.git', FORGED_REF)), `forged ref file; the model got: ${forge}`).toBe(false);
  expect(refOf(repo, FORGED_REF)).toBeNull();
  expect(forge, 'the file write was refused by the guard').toMatch(/git handoff (write|archive)/);
  // 3. a write of the other session's handoff: refused, naming this session's own id
  expect(theirs, 'the foreign write was answered').toBeDefined();
  // (an id is shown cut to its shortest unique prefix of 8 or more characters)
  expect(theirs).toContain(`you are session ${session.slice(0, 8)}`);
  expect(repo.git(['log', '-1', '--format=%(trailers:key=Claude-Session-Id,valueonly)', THEIR_REF]).stdout.trim()).toBe(OTHER);
  // 4. its own write, no --session: recorded under its session id, as this client
  const trailers = repo.git(['log', '-1', '--format=%(trailers)', `refs/handoffs/main/${OWN_TOPIC}`], { allowFail: true }).stdout;
  expect(trailers, `own write; the model got: ${own}`).toContain(`Claude-Session-Id: ${session}`);
  expect(trailers).toContain(`Handoff-Client: ${client}`);
  // 5. the startup view reached the model: the other session's handoff is named in what the model was sent first
  const first = JSON.stringify(api.requests.find((r) => (r.tools ?? []).length > 0) ?? {});
  expect(first.includes(`you are session ${session}`), 'the startup view, naming this session, in the first request').toBe(true);
  expect(first.includes(`${THEIR_TOPIC} · owner ${OTHER}`), 'the other session\'s handoff in the startup view').toBe(true);
  // and the refusals reached the model as tool results
  expect(sent).toContain('git handoff archive');
}
