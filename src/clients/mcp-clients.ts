// The clients that take part through `git handoff mcp` alone (no hook surface), each naming the MCP configuration file `install --agent <name>` adds the server to, and the shape of its entry there.
import path from 'node:path';
import { readTextOr } from '../read-file';
import { userHome } from '../user-dirs';

type Env = NodeJS.ProcessEnv;

export interface McpClientRecord {
  /** the name `install --agent` takes, with the other spellings it accepts */
  agent: string;
  aliases: readonly string[];
  /** how the client calls itself in its own docs */
  title: string;
  /** its MCP configuration file, for this user and the repository at `top` */
  file(top: string, env?: Env): string;
  /** JSON: the top-level object the server's entry goes in, by name; yaml: a file of git-handoff's own */
  format: { json: string } | 'yaml';
}

/** The name the server's entry has in every client's configuration. */
export const MCP_SERVER_NAME = 'git-handoff';

const configHome = (env: Env) => env.XDG_CONFIG_HOME || path.join(userHome(env), '.config');

export const MCP_CLIENTS: readonly McpClientRecord[] = [
  // zed.dev/docs/ai/mcp: "context_servers" in the settings file (JSON with comments), ~/.config/zed on Linux and macOS
  { agent: 'zed', aliases: ['zed-agent'], title: 'Zed', file: (_top, env = process.env) => path.join(configHome(env), 'zed', 'settings.json'), format: { json: 'context_servers' } },
  // modelcontextprotocol.io's quickstart: "mcpServers" in claude_desktop_config.json (macOS: Application Support)
  {
    agent: 'claude-desktop',
    aliases: ['claude-ai'],
    title: 'Claude Desktop',
    file: (_top, env = process.env) =>
      process.platform === 'darwin'
        ? path.join(userHome(env), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
        : path.join(configHome(env), 'Claude', 'claude_desktop_config.json'),
    format: { json: 'mcpServers' },
  },
  // docs.continue.dev: a block file per server in the workspace's .continue/mcpServers/
  { agent: 'continue', aliases: ['continue-dev'], title: 'Continue', file: (top) => path.join(top, '.continue', 'mcpServers', `${MCP_SERVER_NAME}.yaml`), format: 'yaml' },
  // junie.jetbrains.com/docs: "mcpServers" in ~/.junie/mcp/mcp.json (the user's) or the project's .junie/mcp/mcp.json
  { agent: 'junie', aliases: ['junie-cli', 'jetbrains-junie'], title: 'Junie', file: (top) => path.join(top, '.junie', 'mcp', 'mcp.json'), format: { json: 'mcpServers' } },
];

/** The MCP client a name given to `--agent` means (any case), else null. */
export const mcpClientOf = (name: string): McpClientRecord | null => {
  const k = name.trim().toLowerCase();
  return MCP_CLIENTS.find((c) => c.agent === k || c.aliases.includes(k)) ?? null;
};

/** Whether the client's configuration starts `git handoff mcp` for the repository at `top` (doctor's table). */
export const mcpWired = (c: McpClientRecord, top: string, env: Env = process.env): boolean => {
  const text = readTextOr(c.file(top, env));
  // the entry install writes names the server and runs it with `-C <top>`, the path JSON-quoted in either format
  return text !== null && text.includes(MCP_SERVER_NAME) && text.includes(JSON.stringify(top));
};
