// A scripted OpenAI Chat Completions API on 127.0.0.1 for the clients that speak it (Copilot CLI in BYOK mode,
// OpenCode with a custom provider, Qwen Code): each request that offers tools gets the next tool call of a script
// (one at a time, so a single prompt drives several calls), then a short text; a request that offers no tools (a
// title request) gets a text. Every request body is kept, and each tool result the client sent back is read off
// the next request by its call id. Built on shared/tools/*-offline/fake-chat.mjs, with a script instead of one call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptCall {
  tool: string;
  args: Record<string, unknown>;
}

export interface ChatServer {
  url: string;
  /** every chat request body, in order */
  requests: any[];
  /** the text the client sent back for each scripted call, by its index in the script (undefined: never answered) */
  results: Array<string | undefined>;
  close(): Promise<void>;
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: any) => (typeof c === 'string' ? c : (c?.text ?? ''))).join('') : JSON.stringify(content ?? '');

export async function chatServer(script: ScriptCall[]): Promise<ChatServer> {
  const requests: any[] = [];
  const results: Array<string | undefined> = script.map(() => undefined);
  const run = `call_${process.pid}_${Date.now()}_`;
  let next = 0;
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && /\/models$/.test(url)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] }));
      }
      let j: any = null;
      try {
        j = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      if (req.method !== 'POST' || !/\/chat\/completions$/.test(url) || !j) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'not in the fake', type: 'invalid_request_error' } }));
      }
      requests.push(j);
      for (const m of j.messages ?? []) {
        if (m.role !== 'tool' || typeof m.tool_call_id !== 'string' || !m.tool_call_id.startsWith(run)) continue;
        const i = Number(m.tool_call_id.slice(run.length));
        if (results[i] === undefined) results[i] = textOf(m.content);
      }
      const offered = (j.tools ?? []).length > 0;
      let message: Record<string, unknown>;
      let finish: string;
      if (offered && next < script.length) {
        const i = next++;
        message = { content: null, tool_calls: [{ id: `${run}${i}`, type: 'function', function: { name: script[i].tool, arguments: JSON.stringify(script[i].args) } }] };
        finish = 'tool_calls';
      } else {
        message = { content: offered ? 'FAKE-FINAL: done.' : 'Fake title' };
        finish = 'stop';
      }
      const id = `chatcmpl-${++n}`;
      const created = Math.floor(Date.now() / 1000);
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      if (!j.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id, object: 'chat.completion', created, model: j.model, choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage }));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: unknown, finish_reason: string | null = null) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: j.model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`);
      chunk({ role: 'assistant', content: (message.content as string | null) ?? '' });
      if (message.tool_calls) chunk({ tool_calls: (message.tool_calls as any[]).map((t, index) => ({ index, ...t })) });
      chunk({}, finish);
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: j.model, choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    results,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Everything the client sent the model, as one text (system prompt, messages, tool results), JSON-unescaped. */
export const sentText = (s: ChatServer) => JSON.stringify(s.requests).replace(/\\n/g, '\n').replace(/\\"/g, '"');
