// The MCP server is an adapter: it holds no verdict of its own. Its files import no rule (nothing of the guard, the
// store, the claims or the hooks), and every write goes through the CLI, whose texts the model reads.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(__dirname, '..', '..', 'src');
const files = [...readdirSync(path.join(SRC, 'mcp')).map((f) => path.join('mcp', f)), path.join('cli', 'commands', 'mcp.ts')];
const importsOf = (file: string) => [...readFileSync(path.join(SRC, file), 'utf8').matchAll(/(?:from |require\(|import\()\s*'([^']+)'/g)].map((m) => m[1]);
const resolved = (file: string, spec: string) => (spec.startsWith('.') ? path.relative(SRC, path.resolve(SRC, path.dirname(file), spec)) : spec);

describe('git handoff mcp holds no verdict', () => {
  it('its server imports only the SDK, zod, node, the leaves of names (client names, environment variables) and the process starter', () => {
    // (process.ts, the one module that starts a program, imports nothing of the product; bundle.ts, the entry of dist/mcp.cjs, only puts the server beside install's MCP configuration)
    const server = files.filter((f) => f.startsWith('mcp') && !f.endsWith('bundle.ts'));
    expect(server.length).toBeGreaterThan(0);
    const bad = server.flatMap((f) => importsOf(f).map((s) => resolved(f, s)).filter((s) => !/^(@modelcontextprotocol\/sdk\/|zod$|node:|clients\/names$|environment$|process$)/.test(s)).map((s) => `${f}: ${s}`));
    expect(bad).toEqual([]);
  });

  it('neither the server nor its command imports a rule: no guard, hooks, claims decision or store write', () => {
    const bad = files.flatMap((f) => importsOf(f).map((s) => resolved(f, s)).filter((s) => /^(guard|hooks|sync)\/|handoff\/(claims\/claims|store\/store|store\/tx|record)/.test(s)).map((s) => `${f}: ${s}`));
    expect(bad).toEqual([]);
  });

  it('the server spells no refusal: every text the model reads of a refusal is the CLI it runs', () => {
    const text = readFileSync(path.join(SRC, 'mcp', 'server.ts'), 'utf8');
    expect(text).toMatch(/execFile\(process\.execPath, \[o\.bin/);
    expect(text).not.toMatch(/owned by|already claimed|HandoffError/);
  });

  it('its code stays under 600 lines', () => {
    const lines = files.reduce((n, f) => n + readFileSync(path.join(SRC, f), 'utf8').split('\n').length, 0);
    expect(lines).toBeLessThan(600);
  });
});
