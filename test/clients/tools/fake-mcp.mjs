// A minimal MCP server on stdio (newline-delimited JSON-RPC), so a client's MCP tool calls can be seen by its hooks
// with no network and no package. One tool, `write_note` {path, content}: it writes content to path (relative to the
// server's cwd) and says so. Every message it gets is appended to $FAKE_MCP_LOG when set.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const log = (o) => { if (process.env.FAKE_MCP_LOG) appendFileSync(process.env.FAKE_MCP_LOG, JSON.stringify(o) + '\n'); };
const send = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const TOOL = {
  name: 'write_note',
  description: 'Write a note to a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  log(m);
  if (m.id === undefined) return; // a notification
  const result = (r) => send({ jsonrpc: '2.0', id: m.id, result: r });
  switch (m.method) {
    case 'initialize':
      return result({ protocolVersion: m.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fake-mcp', version: '1.0.0' } });
    case 'tools/list':
      return result({ tools: [TOOL] });
    case 'tools/call': {
      const { path, content } = m.params?.arguments ?? {};
      try {
        writeFileSync(path, String(content));
        return result({ content: [{ type: 'text', text: `wrote ${path}` }] });
      } catch (e) {
        return result({ content: [{ type: 'text', text: String(e) }], isError: true });
      }
    }
    case 'ping':
      return result({});
    default:
      return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `no method ${m.method}` } });
  }
});
