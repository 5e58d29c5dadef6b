// Kilo Code's background_process (read through the OpenCode plugin's payload shape): its start and restart run a shell
// command, judged as one; its other actions read or stop a process and are not.
import { describe, expect, it } from 'vitest';
import { RECORDS } from '../../src/clients/records';

const kilo = RECORDS['kilo-code'].adapter;

const call = (tool: string, input: Record<string, unknown>) => kilo.parse({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/tmp', tool_name: tool, tool_input: input });

describe("Kilo Code's background_process", () => {
  it('start and restart are shell calls; output and stop are not', () => {
    for (const action of ['start', 'restart']) {
      expect(call('background_process', { action, command: 'rm x' })).toMatchObject({ client: 'kilo-code', tool: 'background_process', toolInput: { action, command: 'rm x' }, action: { type: 'shell', command: 'rm x', cwd: '/tmp' } });
    }
    for (const action of ['output', 'stop']) expect(call('background_process', { action, id: 1 }).action).toEqual({ type: 'other' });
  });

  it("its other tools are OpenCode's, and a refusal is the plugin's answer", () => {
    const bash = call('bash', { command: 'ls' });
    expect(bash.action).toMatchObject({ type: 'shell', command: 'ls' });
    expect(call('write', { filePath: 'a.md', content: 'x' }).action).toEqual({ type: 'write', path: 'a.md', content: 'x' });
    expect(kilo.render(bash, { deny: 'no' })).toBe('{"deny":"no"}');
  });
});
