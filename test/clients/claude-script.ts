// A real Claude Code conversation, offline: a scripted Messages API (in this process) answers each new user
// prompt with the next tool call of a script and each tool result with a short text, so one `claude -p`
// process can run several turns — `/clear` included (stream-json input) — with its real hooks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { claudeBin } from './deps';
import type { TestRepo } from '../helpers/repo';

export interface ToolCall {
  tool: string;
  input: unknown;
}

export interface Conversation {
  /** every tool result Claude Code sent back, in order */
  results: Array<{ text: string; error: boolean }>;
  stdout: string;
  stderr: string;
  /** every request body Claude Code sent to the Messages API */
  requests: any[];
}

const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } };

function sse(res: http.ServerResponse, events: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_1' });
  for (const e of events) res.write(`event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

function text(res: http.ServerResponse, stream: boolean, t: string): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'msg_t', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: t }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } }));
    return;
  }
  sse(res, [start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } }, { type: 'content_block_stop', index: 0 }, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }, { type: 'message_stop' }]);
}

/** Runs `claude -p` in the repository with these user messages; each message that is not a slash command gets the next call of `script`. */
export async function converse(repo: TestRepo, messages: string[], script: ToolCall[], o: { args?: string[]; env?: Record<string, string> } = {}): Promise<Conversation> {
  const queue = [...script];
  const results: Conversation['results'] = [];
  const requests: any[] = [];
  const seen = new Set<string>();
  const prompts = messages.filter((m) => !m.startsWith('/'));
  const answered = new Set<string>();
  const run = `toolu_${process.pid}_${Date.now()}_`;
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (!req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ input_tokens: 10 }));
      }
      let j: any = {};
      try {
        j = JSON.parse(body);
        requests.push(j);
      } catch {
        /* not JSON: answer with text */
      }
      if (!Array.isArray(j.tools) || j.tools.length === 0) return text(res, !!j.stream, 'ok');
      const messages: any[] = j.messages ?? [];
      for (const m of messages) {
        for (const r of Array.isArray(m.content) ? m.content : []) {
          // Only calls of this run: a resumed conversation carries earlier results too.
          if (r.type !== 'tool_result' || seen.has(r.tool_use_id) || !String(r.tool_use_id).startsWith(run)) continue;
          seen.add(r.tool_use_id);
          const t = Array.isArray(r.content) ? r.content.map((c: any) => c.text ?? '').join('') : String(r.content ?? '');
          results.push({ text: t, error: r.is_error === true });
        }
      }
      // A request answers a new prompt when its last user message carries a prompt not answered yet (the
      // client may fold the prompt into the message that holds the previous tool result); else a tool result.
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      const texts = typeof lastUser?.content === 'string' ? [lastUser.content] : (lastUser?.content ?? []).filter((c: any) => c.type === 'text').map((c: any) => String(c.text));
      const prompt = prompts.find((p) => !answered.has(p) && texts.some((t: string) => t.includes(p)));
      if (prompt === undefined) return text(res, !!j.stream, 'done');
      answered.add(prompt);
      const call = queue.shift();
      if (!call) return text(res, !!j.stream, 'nothing to do');
      const id = `${run}${++n}`;
      sse(res, [start, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name: call.tool, input: {} } }, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } }, { type: 'content_block_stop', index: 0 }, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }, { type: 'message_stop' }]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    // One message at a time: the next is sent when the previous turn's result line arrives (queued messages would merge).
    const child = spawn(claudeBin(), ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash,Write,Edit', ...(o.args ?? [])], {
      cwd: repo.dir,
      env: { ...repo.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: 'sk-ant-offline', ...o.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pending = [...messages];
    const send = () => {
      const m = pending.shift();
      if (m === undefined) return void child.stdin.end();
      child.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: m } }) + '\n');
    };
    let stdout = '';
    let stderr = '';
    let buffered = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      buffered += d;
      let i: number;
      while ((i = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        let type: unknown;
        try {
          type = JSON.parse(line).type;
        } catch {
          continue;
        }
        if (type === 'result') send();
      }
    });
    send();
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    clearTimeout(timer);
    return { results, stdout, stderr, requests };
  } finally {
    server.close();
  }
}

/** The session ids a stream-json run reported, in order of first appearance. */
export const sessionsOf = (stdout: string) => [...new Set([...stdout.matchAll(/"session_id":"([^"]+)"/g)].map((m) => m[1]))];
