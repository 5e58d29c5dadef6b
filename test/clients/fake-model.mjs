// A scripted stand-in for the model APIs the real clients call offline (Anthropic Messages, OpenAI Responses, Chat
// Completions, Gemini's generateContent), on 127.0.0.1: a request that offers tools gets the next call of a script
// (the calls already answered in its conversation say which), a request past the script's end a short text. Every
// reply is logged with the tools the request offered, so a test can tell a call that reached the client from one the
// client never offered (which would prove nothing).
//
// usage: node fake-model.mjs <port> <log.jsonl> <script.json> [pidfile]
//   script.json: [{"name": "<tool>", "args": {...}}, ...]; for a custom tool (Codex's apply_patch) args.input is the text
import http from 'node:http';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const [port, log, scriptFile, pidfile] = process.argv.slice(2);
const script = JSON.parse(readFileSync(scriptFile, 'utf8'));
const write = (o) => appendFileSync(log, JSON.stringify({ t: new Date().toISOString(), ...o }) + '\n');
let n = 0;

const textOf = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (typeof x === 'string' ? x : (x?.text ?? x?.output ?? ''))).join('') : JSON.stringify(c ?? ''));

/** The next call for a conversation that already has `done` tool results, or null past the script. */
const next = (done) => (done < script.length ? script[done] : null);

function sse(res, events, named) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${++n}` });
  for (const e of events) res.write(named ? `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n` : `data: ${JSON.stringify(e)}\n\n`);
  res.end();
}
const json = (res, v) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(v));
};

function anthropic(res, j) {
  const offered = (j.tools ?? []).map((t) => t.name);
  const answers = (j.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((c) => c.type === 'tool_result');
  const done = answers.length;
  const results = answers.map((c) => textOf(c.content));
  const call = offered.length ? next(done) : null;
  const start = { type: 'message_start', message: { id: `msg_${++n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } };
  const end = (reason) => [{ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 5 } }, { type: 'message_stop' }];
  write({ api: "anthropic", reply: call ? "tool_call" : "text", call, offered: call ? offered.includes(call.name) : undefined, done, tools: offered, results });
  if (!call) {
    const text = offered.length ? 'FAKE-FINAL: done.' : 'ok';
    if (!j.stream) return json(res, { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } });
    return sse(res, [start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, { type: 'content_block_stop', index: 0 }, ...end('end_turn')], true);
  }
  sse(res, [start, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${String(n).padStart(4, '0')}`, name: call.name, input: {} } }, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) } }, { type: 'content_block_stop', index: 0 }, ...end('tool_use')], true);
}

function responses(res, j) {
  const tools = j.tools ?? [];
  const offered = tools.map((t) => t.name ?? t.type);
  const input = Array.isArray(j.input) ? j.input : [];
  const answers = input.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output');
  const done = answers.length;
  const results = answers.map((i) => textOf(i.output));
  const call = offered.length ? next(done) : null;
  const id = `resp_${++n}`;
  const created = { type: 'response.created', response: { id } };
  const completed = { type: 'response.completed', response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } } };
  write({ api: "responses", reply: call ? "tool_call" : "text", call, offered: call ? offered.includes(call.name) : undefined, done, tools: offered, results, raw: process.env.FAKE_RAW ? j : undefined });
  let item;
  if (call) {
    const custom = tools.find((t) => t.name === call.name)?.type === 'custom';
    item = custom
      ? { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_${n}`, name: call.name, input: call.args.input, status: 'completed' }
      : { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: call.name, ...(call.namespace ? { namespace: call.namespace } : {}), arguments: JSON.stringify(call.args), status: "completed" };
    return sse(res, [created, { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } }, { type: 'response.output_item.done', output_index: 0, item }, completed], true);
  }
  const text = 'FAKE-FINAL: done.';
  item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  sse(res, [created, { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } }, { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: item.id, delta: text }, { type: 'response.output_item.done', output_index: 0, item }, completed], true);
}

function chat(res, j) {
  const offered = (j.tools ?? []).map((t) => t.function?.name ?? t.name);
  const answers = (j.messages ?? []).filter((m) => m.role === 'tool');
  const done = answers.length;
  const results = answers.map((m) => textOf(m.content));
  const call = offered.length ? next(done) : null;
  write({ api: 'chat', reply: call ? 'tool_call' : 'text', call, offered: call ? offered.includes(call.name) : undefined, done, tools: offered, results });
  const id = `chatcmpl-${++n}`;
  const created = Math.floor(Date.now() / 1000);
  const message = call ? { content: null, tool_calls: [{ id: `call_fake_${n}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] } : { content: offered.length ? 'FAKE-FINAL: done.' : 'Fake title' };
  const finish = call ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!j.stream) return json(res, { id, object: 'chat.completion', created, model: j.model, choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage });
  const chunk = (delta, finish_reason = null) => ({ id, object: 'chat.completion.chunk', created, model: j.model, choices: [{ index: 0, delta, finish_reason }] });
  const events = [chunk({ role: 'assistant', content: message.content ?? '' })];
  if (message.tool_calls) events.push(chunk({ tool_calls: message.tool_calls.map((t, index) => ({ index, ...t })) }));
  events.push(chunk({}, finish), { id, object: 'chat.completion.chunk', created, model: j.model, choices: [], usage });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function gemini(res, j, url) {
  if (url.includes(':countTokens')) return json(res, { totalTokens: 10 });
  const offered = (j.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
  const answers = (j.contents ?? []).flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse);
  const done = answers.length;
  const results = answers.map((p) => JSON.stringify(p.functionResponse.response ?? {}));
  const call = offered.length ? next(done) : null;
  let parts;
  if (call) parts = [{ functionCall: { name: call.name, args: call.args } }];
  else if (j.generationConfig?.responseMimeType === 'application/json') parts = [{ text: '{"reasoning":"lab","model_choice":"flash","next_speaker":"user"}' }];
  else parts = [{ text: 'FAKE-FINAL: done.' }];
  write({ api: 'gemini', reply: call ? 'tool_call' : 'text', call, offered: call ? offered.includes(call.name) : undefined, done, tools: offered, results });
  const body = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'gemini-2.5-flash' };
  if (url.includes('alt=sse') || url.includes(':streamGenerateContent')) return sse(res, [body], false);
  json(res, body);
}

http
  .createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let j = {};
      try {
        j = JSON.parse(body);
      } catch {}
      const url = req.url ?? '';
      const p = url.split('?')[0];
      if (req.method === 'GET' && /\/models$/.test(p)) return json(res, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }], models: [] });
      if (req.method !== 'POST') return json(res, {});
      if (/\/v1\/messages$/.test(p)) return anthropic(res, j);
      if (/count_tokens/.test(p)) return json(res, { input_tokens: 10 });
      if (/\/responses$/.test(p)) return responses(res, j);
      if (/\/chat\/completions$/.test(p)) return chat(res, j);
      if (/:(stream)?[gG]enerateContent|:countTokens/.test(p)) return gemini(res, j, url);
      write({ api: 'unknown', url });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not implemented in fake', type: 'invalid_request_error' } }));
    });
  })
  .listen(Number(port), '127.0.0.1', () => {
    if (pidfile) writeFileSync(pidfile, String(process.pid));
  });
