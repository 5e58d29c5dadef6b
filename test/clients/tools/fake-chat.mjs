// A scripted stand-in for the OpenAI Chat Completions API on 127.0.0.1, so a real client (Cline CLI, Kilo Code CLI,
// Factory droid, each with its own-key / OpenAI-compatible provider) runs a turn with no network.
//
// usage: node fake-chat.mjs <port, 0 for any free one> <log.jsonl> [portfile]
// env:   FAKE_CALLS  JSON array of tool calls, in order: [{"name": "<tool>", "arguments": {...}}, ...]. A chat request
//                    that offers tools and carries k tool results gets call k (one call per model step); once they are
//                    used up, a short text ends the turn.
//        FAKE_CMD    without FAKE_CALLS: one shell call, to the first offered of the usual shell tool names.
//
// A request that offers no tools (a title or summary request) gets a short text. GET .../models lists one model.
// Every request is logged as one JSON line: url, headers, body, what was answered, the tools offered. The port it
// listens on is written to the portfile once it listens.
import http from 'node:http';
import { appendFileSync, writeFileSync } from 'node:fs';

const [port = '0', log = '/dev/null', portfile] = process.argv.slice(2);
const SHELLS = ['bash', 'shell', 'run_shell_command', 'execute_command', 'run_commands', 'Execute', 'exec'];
const calls = process.env.FAKE_CALLS ? JSON.parse(process.env.FAKE_CALLS) : null;
let n = 0;
const write = (o) => appendFileSync(log, JSON.stringify(o) + '\n');

function reply(res, stream, model, message, finish) {
  const id = 'chatcmpl-' + ++n, created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage }));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta, finish_reason = null) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`);
  chunk({ role: 'assistant', content: message.content ?? '' });
  if (message.tool_calls) chunk({ tool_calls: message.tool_calls.map((t, index) => ({ index, ...t })) });
  chunk({}, finish);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** The call for this step: the next scripted one, or the one shell call. */
function nextCall(offered, done) {
  if (calls) return calls[done];
  const shell = SHELLS.find((x) => offered.includes(x));
  if (done > 0 || !shell) return undefined;
  return { name: shell, arguments: { command: process.env.FAKE_CMD || 'echo hello-from-fake', description: 'run the command' } };
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let j = null;
    try { j = JSON.parse(body); } catch {}
    const entry = { t: new Date().toISOString(), method: req.method, url: req.url, headers: req.headers, body: j ?? body.slice(0, 2000) };
    const path = req.url.split('?')[0];
    if (req.method === 'GET' && /\/models$/.test(path)) {
      write({ ...entry, reply: 'models' });
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] }));
    }
    if (req.method === 'POST' && /\/chat\/completions$/.test(path) && j) {
      const offered = (j.tools || []).map((t) => t.function?.name ?? t.name);
      const done = (j.messages || []).filter((m) => m.role === 'tool').length;
      const step = offered.length ? nextCall(offered, done) : undefined;
      if (step) {
        const args = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments ?? {});
        const call = { id: `call_fake_${done + 1}`, type: 'function', function: { name: step.name, arguments: args } };
        write({ ...entry, reply: 'tool_call', call, offered });
        return reply(res, j.stream, j.model, { content: null, tool_calls: [call] }, 'tool_calls');
      }
      write({ ...entry, reply: 'text', offered });
      return reply(res, j.stream, j.model, { content: done ? 'FAKE-FINAL: done.' : 'Fake title' }, 'stop');
    }
    write({ ...entry, reply: '404' });
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'not implemented in fake', type: 'invalid_request_error' } }));
  });
});
server.listen(Number(port), '127.0.0.1', () => {
  if (portfile) writeFileSync(portfile, String(server.address().port));
});
