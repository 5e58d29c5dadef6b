// `install --agent <an MCP client>`: the MCP server added to the client's MCP configuration, next to the person's
// own servers, with their comments and formatting kept (jsonc-parser edits the text in place). Uninstall gives the
// file back byte for byte while it is as install left it (install-record), else takes out only the server's entry;
// doctor starts the server as the entry says and asks it for its tools. Bundled into dist/mcp.cjs: only a command
// that names an MCP client, and doctor where one is wired, load it.
import { readFileSync } from 'node:fs';
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { HandoffError } from '../errors';
import { yamlParser } from '../yaml';
import { MCP_SERVER_NAME, type McpClientRecord } from '../clients/mcp-clients';
import { notAnObject, unwireFile, writeOwnFile } from './native';
import { readTextOr } from '../read-file';
import { spawnSync } from '../process';
import type { DoctorItem } from '../wiring';

/** The first line of git-handoff's own YAML file: how it came and how it goes. */
const yamlHead = (c: McpClientRecord) => `# ${MCP_SERVER_NAME}: written by \`git handoff install --agent ${c.agent}\`; \`git handoff uninstall --agent ${c.agent}\` removes it\n`;

/** The configuration's tree; a file that is not a JSON object (comments allowed) stops install with the way on. */
function treeOf(file: string, text: string): Node {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true });
  if (errors.length || tree?.type !== 'object') throw notAnObject(file);
  return tree;
}

/**
 * The configuration's text with the server's entry in the object `key` (made when missing), spliced in as one line
 * after that object's brace: the person's servers, comments and formatting stay as they are, byte for byte.
 */
function withEntry(file: string, text: string, key: string, value: unknown): string {
  const entry = `${JSON.stringify(MCP_SERVER_NAME)}: ${JSON.stringify(value)}`;
  if (!text.trim()) return `{\n  ${JSON.stringify(key)}: {\n    ${entry}\n  }\n}\n`;
  const tree = treeOf(file, text);
  const splice = (at: number, length: number, s: string) => text.slice(0, at) + s + text.slice(at + length);
  const old = findNodeAtLocation(tree, [key, MCP_SERVER_NAME]);
  if (old) return splice(old.offset, old.length, JSON.stringify(value));
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)["/]/.exec(text)?.[1] ?? '  ';
  const into = findNodeAtLocation(tree, [key]);
  if (into && into.type !== 'object') throw new HandoffError('usage', 'unreadable-settings', `${file}: "${key}" is not an object; fix it, then run install again (nothing was changed)`, { file });
  if (into) return splice(into.offset + 1, 0, `${eol}${indent}${indent}${entry}${into.children?.length ? ',' : ''}`);
  return splice(tree.offset + 1, 0, `${eol}${indent}${JSON.stringify(key)}: {${eol}${indent}${indent}${entry}${eol}${indent}}${tree.children?.length ? ',' : ''}`);
}

/** The configuration's text without the server's entry (a file changed since install: the rest as it is now). */
function withoutEntry(file: string, text: string, key: string): string {
  treeOf(file, text);
  return applyEdits(text, modify(text, [key, MCP_SERVER_NAME], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
}

/** The text install writes: the person's file with the server's entry, or git-handoff's own YAML block. */
function wanted(c: McpClientRecord, file: string, entry: { command: string; args: string[] }): string {
  if (c.format === 'yaml') {
    const list = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;
    return `${yamlHead(c)}name: ${MCP_SERVER_NAME}\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: ${MCP_SERVER_NAME}\n    command: ${JSON.stringify(entry.command)}\n    args: ${list(entry.args)}\n`;
  }
  return withEntry(file, readTextOr(file) ?? '', c.format.json, entry);
}

/** The client starts `command` (the git-handoff executable) as the server of the repository at `top` (`-C <top> mcp`). */
export function installMcpClient(c: McpClientRecord, top: string, commonDir: string, command: string): string {
  const file = c.file(top);
  const entry = { command, args: ['-C', top, 'mcp'] };
  const text = wanted(c, file, entry);
  if (writeOwnFile(commonDir, file, text, () => true) === 'same') return `${file}: ${c.title} already starts \`git handoff mcp\``;
  return `${file}: ${c.title} starts \`${command} ${entry.args.join(' ')}\` (MCP server "${MCP_SERVER_NAME}"); restart ${c.title} to load it`;
}

export function uninstallMcpClient(c: McpClientRecord, top: string, commonDir: string): string | null {
  const ours = (text: string) => (c.format === 'yaml' ? text.startsWith(yamlHead(c)) : entryOf(c, text) !== null);
  const file = c.file(top);
  // changed since install: only the server's entry goes (git-handoff's own YAML file whole)
  const without = (text: string) => (c.format === 'yaml' ? '' : withoutEntry(file, text, c.format.json));
  return unwireFile(top, file, commonDir, (text) => (ours(text) ? [without(text), `the MCP server "${MCP_SERVER_NAME}" taken out`] : null), ours);
}

/** The server's entry as the client's configuration has it (read back, never rebuilt), or null where it has none. */
function entryOf(c: McpClientRecord, text: string): { command?: unknown; args?: unknown } | null {
  try {
    if (c.format !== 'yaml') return parse(text, [], { allowTrailingComma: true })?.[c.format.json]?.[MCP_SERVER_NAME] ?? null;
    const servers: unknown = yamlParser().parse(text)?.mcpServers;
    return (Array.isArray(servers) && servers.find((s) => s?.name === MCP_SERVER_NAME)) || null;
  } catch {
    return null;
  }
}

/** How long doctor waits for the server's answer: a start of node and the bundle, on a loaded machine. */
const PROBE_MS = 10_000;

/** MCP's opening and a list of the tools, as a client sends them over stdio; the server answers each line in turn. */
const PROBE_INPUT = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'git-handoff-doctor', version: '0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');

/** The names of the tools in the server's answer to tools/list, or null where there is no such answer. */
function toolsIn(stdout: string): string[] | null {
  for (const line of stdout.split('\n')) {
    try {
      const m = JSON.parse(line);
      if (m?.id === 2 && Array.isArray(m.result?.tools)) return m.result.tools.map((t: { name?: unknown }) => String(t?.name));
    } catch {
      // not a message of the protocol
    }
  }
  return null;
}

/** Starts the command the entry runs, as the client would (no shell), and asks it for its tools. */
function probe(c: McpClientRecord, command: string, args: string[], top: string): Omit<DoctorItem, 'component'> {
  const ran = `\`${[command, ...args].join(' ')}\``;
  const r = spawnSync(command, args, { cwd: top, input: PROBE_INPUT, encoding: 'utf8', timeout: PROBE_MS });
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return { status: 'broken', detail: `${ran} did not start: ${command} not found (put git-handoff on PATH, or \`git handoff install --agent ${c.agent} --launcher <its path>\`)` };
  if (code === 'ETIMEDOUT') return { status: 'broken', detail: `${ran} gave no answer in ${PROBE_MS / 1000} s (try it: \`git handoff mcp\` in this repository, then \`git handoff install --agent ${c.agent}\`)` };
  const tools = toolsIn(String(r.stdout ?? ''));
  if (tools) return { status: 'ok', detail: `${ran} answered MCP with its tools: ${tools.join(', ')}` };
  const why = r.error?.message ?? `exit ${r.status}: ${String(r.stderr ?? '').trim().split('\n')[0].slice(0, 200)}`;
  return { status: 'broken', detail: `${ran} gave no list of tools (${why}); run \`git handoff install --agent ${c.agent}\` again` };
}

/** doctor's row for each MCP client wired here: its entry read back, the server it starts asked for its tools. */
export function doctorMcpClients(clients: readonly McpClientRecord[], top: string): DoctorItem[] {
  return clients.map((c) => {
    const component = `agent ${c.agent}`;
    const file = c.file(top);
    const entry = entryOf(c, readFileSync(file, 'utf8'));
    if (!entry) return { component, status: 'missing', detail: `${file} has no entry of the MCP server "${MCP_SERVER_NAME}" (git handoff install --agent ${c.agent})` };
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    if (typeof entry.command !== 'string' || !args.includes(top)) {
      return { component, status: 'broken', detail: `${file}: its "${MCP_SERVER_NAME}" entry does not run this repository's server (${JSON.stringify(entry)}); run \`git handoff install --agent ${c.agent}\` again` };
    }
    const found = probe(c, entry.command, args, top);
    return { component, status: found.status, detail: `${file}: ${found.detail}` };
  });
}
