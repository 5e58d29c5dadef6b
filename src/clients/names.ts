// One vocabulary of agent client names (SPEC 6): the name `--client=` states, `client:` addresses, Handoff-Client
// records and docs use, with the short names `install --agent` takes and the aliases every place accepts.

/** Every client git-handoff serves, by its one name. */
export const CLIENT_NAMES = [
  'claude-code', 'gemini-cli', 'codex', 'cursor', 'copilot', 'opencode', 'qwen-code', 'vscode', 'factory-droid', 'cline', 'windsurf', 'kiro', 'augment',
  'devin-cli', 'crush', 'kilo-code',
] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

/** The short names `install --agent` takes, each its client's: every client but VS Code's agent, which runs the Claude Code wiring. */
export const AGENT_CLIENT = {
  claude: 'claude-code',
  gemini: 'gemini-cli',
  codex: 'codex',
  copilot: 'copilot',
  opencode: 'opencode',
  qwen: 'qwen-code',
  cursor: 'cursor',
  droid: 'factory-droid',
  cline: 'cline',
  windsurf: 'windsurf',
  kiro: 'kiro',
  augment: 'augment',
  devin: 'devin-cli',
  crush: 'crush',
  kilo: 'kilo-code',
} as const satisfies Record<string, ClientName>;
export type Agent = keyof typeof AGENT_CLIENT;
export const AGENTS = Object.keys(AGENT_CLIENT) as readonly Agent[];

/** Other spellings people use for a client, each meaning exactly one. */
const OTHER_NAMES: Partial<Record<ClientName, readonly string[]>> = {
  'claude-code': ['claude-cli'],
  codex: ['codex-cli'],
  copilot: ['copilot-cli', 'github-copilot', 'github-copilot-cli'],
  opencode: ['open-code'],
  vscode: ['vs-code', 'visual-studio-code', 'vscode-copilot'],
  cursor: ['cursor-agent'],
  'factory-droid': ['factory', 'factory-cli'],
  cline: ['cline-cli'],
  windsurf: ['cascade', 'windsurf-cascade'],
  kiro: ['kiro-cli', 'kiro-ide'],
  augment: ['auggie', 'augment-code'],
  crush: ['charm-crush'],
  'kilo-code': ['kilocode', 'kilo-cli', 'kilo-code-cli'],
};
/** Every alias (the `install --agent` names among them) by the client it means. */
const ALIASES: Record<string, ClientName> = {
  ...AGENT_CLIENT,
  ...Object.fromEntries(Object.entries(OTHER_NAMES).flatMap(([client, names]) => names.map((n) => [n, client as ClientName]))),
};

/** The one name of a client given by its name or an alias (any case), else null. */
export function clientName(s: string | null | undefined): ClientName | null {
  if (!s) return null;
  const k = s.trim().toLowerCase();
  if ((CLIENT_NAMES as readonly string[]).includes(k)) return k as ClientName;
  return Object.hasOwn(ALIASES, k) ? ALIASES[k] : null;
}

/** The `--agent` short name of a client given by any of its names, else null (VS Code's agent has none). */
export function agentName(s: string): Agent | null {
  const c = clientName(s);
  return AGENTS.find((a) => AGENT_CLIENT[a] === c) ?? null;
}

/** The variable each client's shell (or hooks) get with its session id, in the order read after GIT_HANDOFF_SESSION (SPEC 3). */
export const SESSION_VARS: ReadonlyArray<readonly [string, ClientName]> = [
  ['CLAUDE_CODE_SESSION_ID', 'claude-code'],
  ['GEMINI_SESSION_ID', 'gemini-cli'],
  ['CODEX_THREAD_ID', 'codex'],
  ['COPILOT_AGENT_SESSION_ID', 'copilot'],
  ['QWEN_CODE_SESSION_ID', 'qwen-code'],
  ['OPENCODE_SESSION_ID', 'opencode'],
  ['KILO_SESSION_ID', 'kilo-code'],
  ['CRUSH_SESSION_ID', 'crush'],
];

/** The session variables the git-handoff plugin sets in its client's shell (shell.env), not the client itself. */
export const PLUGIN_SESSION_VARS: ReadonlySet<string> = new Set(['OPENCODE_SESSION_ID', 'KILO_SESSION_ID']);

/** The client whose session a seed file's `<!-- claude-session: ID -->` first line names (src/handoff/import). */
export const SEED_MARKER_CLIENT: ClientName = 'claude-code';

/** Every variable a session id is read from, in that order: GIT_HANDOFF_SESSION, then each client's own. */
export const SESSION_ID_VARS: readonly string[] = ['GIT_HANDOFF_SESSION', ...SESSION_VARS.map(([v]) => v)];

/** The variable `client`'s shell tool exports with its session id, or null. */
export const sessionVarOf = (client: ClientName): string | null => SESSION_VARS.find(([, c]) => c === client)?.[0] ?? null;

/** Variables that say which client's shell this is when no session variable does. */
const MARKERS: ReadonlyArray<readonly [string, ClientName]> = [
  ['CLAUDECODE', 'claude-code'],
  ['GEMINI_CLI', 'gemini-cli'],
  ['COPILOT_CLI', 'copilot'],
  ['QWEN_CODE', 'qwen-code'],
  // Kilo Code's shell has KILO=1 and OPENCODE=1 (7.7.7): KILO is read first
  ['KILO', 'kilo-code'],
  ['OPENCODE', 'opencode'],
];

/** The agent session an environment is inside, by its client's session variable (with the id) or marker; null: a person's. */
export function agentSessionOf(env: NodeJS.ProcessEnv): { variable: string; client: ClientName; session: string | null } | null {
  for (const [variable, client] of SESSION_VARS) if (env[variable]) return { variable, client, session: env[variable]! };
  for (const [variable, client] of MARKERS) if (env[variable]) return { variable, client, session: null };
  return null;
}
