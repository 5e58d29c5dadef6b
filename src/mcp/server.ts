// `git handoff mcp`: a stdio MCP server for the agents without hooks (Zed's agent, Claude Desktop, Continue). An
// adapter and nothing more: every tool runs the CLI (bin/git-handoff) as the session this connection was given, so
// the write path, the ownership rule and the refusal texts are the CLI's own. Built into dist/mcp.cjs, loaded by
// cli/commands/mcp.ts alone.
import { execFile } from '../process';
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate, type ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { SESSION_ID_VARS } from '../clients/names';
import { CLIENT_VAR } from '../environment';

export interface McpOptions {
  /** the CLI every tool runs: this installation's bin/git-handoff */
  bin: string;
  version: string;
  /** records a new session of this client as the repository's sessions are recorded; throws outside a repository */
  record(session: string, client: string): void;
  /** the handoff and claims refs now: what each is called for a reader, and its oid */
  refs(): Map<string, string>;
}

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

const text = (t: string, isError = false): ToolResult => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });

/** `--branch=<b>` when given: values go joined to their option, so none is read as an option of its own. */
const branchArg = (branch?: string) => (branch ? [`--branch=${branch}`] : []);

/** What changed between two looks at the refs (null on the first, or when nothing did). */
function changes(before: Map<string, string> | null, now: Map<string, string>): string | null {
  if (!before) return null;
  const changed = [...now].filter(([r, oid]) => before.get(r) !== oid).map(([r]) => `${r} ${before.has(r) ? 'changed' : 'new'}`);
  const all = [...changed, ...[...before.keys()].filter((r) => !now.has(r)).map((r) => `${r} gone`)];
  return all.length ? `since you last looked: ${all.slice(0, 8).join('; ')}${all.length > 8 ? `; and ${all.length - 8} more` : ''}` : null;
}

export async function serveMcp(o: McpOptions): Promise<void> {
  const server = new McpServer({ name: 'git-handoff', version: o.version });
  // what this connection knows: its session once begun, the refs as it last saw them
  let session: string | null = null;
  let seen: Map<string, string> | null = null;
  // the client's name goes into the session's records and the lease's trailers: a word, else just "mcp"
  const client = () => /^[\w.-]{1,64}$/.exec(server.server.getClientVersion()?.name ?? '')?.[0] ?? 'mcp';

  /** `git handoff <args>` as this connection's session (no session variable of the server's own environment); its stdout when it succeeds, else its own error text. */
  const run = (args: string[], input?: string) =>
    new Promise<{ ok: boolean; text: string }>((resolve) => {
      const env = { ...process.env };
      for (const v of [...SESSION_ID_VARS, CLIENT_VAR]) delete env[v];
      if (session) Object.assign(env, { GIT_HANDOFF_SESSION: session, [CLIENT_VAR]: client() });
      const child = execFile(process.execPath, [o.bin, ...args], { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const out = (err ? [stderr, stdout] : [stdout, stderr]).map((x) => String(x).trim()).filter(Boolean).join('\n');
        resolve({ ok: !err, text: out || (err ? String(err.message) : 'done') });
      });
      child.stdin?.end(input ?? '');
    });

  /** A tool's answer: news since the last call first (once), then what the CLI said; a write tool needs the session. */
  const tool = async (args: string[], writes: boolean, input?: string): Promise<ToolResult> => {
    if (writes && !session) return text('git-handoff: no session yet: call handoff_begin first (it gives this connection its session; a write is made only under it)', true);
    const news = safe(() => changes(seen, o.refs()));
    const r = await run(args, input);
    // the refs as this call leaves them: its own change is not news at the next call
    seen = safe(o.refs) ?? seen;
    return text([news, r.text].filter(Boolean).join('\n\n'), !r.ok);
  };

  const READ = { readOnlyHint: true, openWorldHint: false } as const;
  const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;
  const DESTROY = { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as const;
  const topic = z.string().describe('the handoff: two or more words joined by "-", e.g. auth-refactor');
  const branch = z.string().optional().describe('the branch (default: the checked-out one)');
  const body = z.string().describe('the handoff body (markdown): what is done, what is next, what to watch out for');
  const paths = z.array(z.string()).min(1).describe('files, directories (src/auth/) or globs (src/**/*.ts), relative to the repository');
  /** A tool that runs `git handoff <args>` (`input` on its stdin); one that is not read-only needs the session. */
  // (the cast: the SDK's callback type is conditional on S, which TypeScript does not resolve for a generic S)
  const cli = <S extends ZodRawShapeCompat>(name: string, description: string, inputSchema: S, annotations: ToolAnnotations, call: (a: ShapeOutput<S>) => [string[], string?]) =>
    server.registerTool(name, { description, inputSchema, annotations }, ((a: ShapeOutput<S>) => {
      const [args, input] = call(a);
      return tool(args, !annotations.readOnlyHint, input);
    }) as unknown as ToolCallback<S>);

  const begin = "Begin this connection's git-handoff session (once; later calls return the same). Every write is made under it. Returns the session id and the handoffs to read first.";
  server.registerTool('handoff_begin', { description: begin, inputSchema: {}, annotations: WRITE }, async () => {
    // a fresh id of the form clients give theirs, recorded as a session start records one (once: later calls return it)
    if (!session) {
      const id = randomUUID();
      try {
        o.record(id, client());
      } catch (e) {
        return text(`git-handoff: ${(e as Error).message}`, true);
      }
      session = id;
    }
    const r = await tool(['boot'], false);
    return text(`you are session ${session} (client ${client()})\n\n${r.content[0].text}`, r.isError);
  });
  cli('handoff_write', 'Write (create or update) a handoff of your own session: the note the next session reads.', { topic, body, branch }, WRITE, (a) => [
    ['write', ...branchArg(a.branch), '--file=-', '--', a.topic],
    a.body,
  ]);
  cli(
    'handoff_takeover',
    "Take over another session's handoff, on the record with your reason, and write its new version.",
    {
      topic,
      reason: z.string().min(1).describe('why you take it over (kept in its history)'),
      body,
      branch,
      fromLive: z.boolean().optional().describe('take it over although its owner is live (it is told at its next call)'),
    },
    DESTROY,
    (a) => [['write', ...branchArg(a.branch), '--take-over', `--reason=${a.reason}`, ...(a.fromLive ? ['--from-live'] : []), '--file=-', '--', a.topic], a.body],
  );
  cli('handoff_show', 'Read a handoff (default: the only one on the branch).', { topic: topic.optional(), branch }, READ, (a) => [['show', ...branchArg(a.branch), ...(a.topic ? ['--', a.topic] : [])]]);
  cli('handoff_list', 'List the handoffs of the branch, or of every branch.', { all: z.boolean().optional().describe('every branch'), branch }, READ, (a) => [['list', ...(a.all ? ['--all'] : branchArg(a.branch))]]);
  cli('handoff_boot', 'What a session reads first: the handoffs for it, newest first.', { branch }, READ, (a) => [['boot', ...branchArg(a.branch)]]);
  cli(
    'handoff_claim',
    'Claim paths you are about to change: other sessions are told, and their writes to them refused.',
    { paths, note: z.string().optional().describe('why: shown to every session that meets the claim'), ttl: z.string().optional().describe('how long it lasts: 30m, 2h') },
    WRITE,
    (a) => [['claim', ...(a.note ? [`--note=${a.note}`] : []), ...(a.ttl ? [`--ttl=${a.ttl}`] : []), '--', ...a.paths]],
  );
  cli('handoff_release', 'Give back claims of yours on these paths.', { paths }, DESTROY, (a) => [['release', '--', ...a.paths]]);
  cli('handoff_claims', 'The live claims on the branch: who holds which paths.', { branch }, READ, (a) => [['claims', ...branchArg(a.branch)]]);
  cli('handoff_status', "The team's state: live sessions, the handoffs of the branch, what needs a person.", { all: z.boolean().optional().describe('every branch, and sessions no longer live') }, READ, (a) => [
    ['status', ...(a.all ? ['--all'] : [])],
  ]);

  const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });
  server.registerPrompt('handoff-boot', { description: 'Begin a session and read the handoffs left for it' }, () =>
    ask('Call handoff_begin, read the handoffs it lists (handoff_show), and carry on from where they leave off.'),
  );
  server.registerPrompt('handoff-write', { description: 'Leave a handoff for the next session', argsSchema: { topic: z.string().optional() } }, (a) =>
    ask(
      `Write a handoff${a.topic ? ` under the topic ${a.topic}` : ''} with handoff_write: what is done, what is next, the open questions and the traps. Take over another session's only with handoff_takeover and a reason.`,
    ),
  );
  server.registerPrompt('claim', { description: 'Claim the paths you are about to change', argsSchema: { paths: z.string().optional() } }, (a) =>
    ask(`Before changing ${a.paths ?? 'files'}, claim them with handoff_claim; give them back with handoff_release when done.`),
  );

  const read = async (uri: URL, args: string[]) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: (await run(args)).text }] });
  server.registerResource('status', 'handoff://status', { description: "The team's status", mimeType: 'text/markdown' }, (uri) => read(uri, ['status']));
  server.registerResource(
    'handoff',
    new ResourceTemplate('handoff://{branch}/{topic}', { list: undefined }),
    { description: 'A handoff, by branch and topic', mimeType: 'text/markdown' },
    (uri, v) => read(uri, ['show', '--no-receipt', `--branch=${String(v.branch)}`, '--', String(v.topic)]),
  );

  // the client gone (stdin closed): the server goes too, leaving no process behind
  for (const gone of ['end', 'close']) process.stdin.once(gone, () => process.exit(0));
  await server.connect(new StdioServerTransport());
}

/** A look that may fail (a repository being rewritten): the tool's answer goes on without it. */
function safe<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}
