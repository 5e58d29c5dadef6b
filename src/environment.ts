// The environment variables git-handoff reads, in one list the man page's ENVIRONMENT section is generated from; the
// session variables come from the clients' own table.
import { CLIENT_NAMES, PLUGIN_SESSION_VARS, SESSION_VARS } from './clients/names';

interface EnvironmentVariable {
  name: string;
  description: string;
}

export const ROLE_VAR = 'GIT_HANDOFF_ROLE';
/** no-color.org: set to anything, no colour unless --color=always asks for it. */
export const COLOR_OFF_VAR = 'NO_COLOR';
export const CLIENT_VAR = 'GIT_HANDOFF_CLIENT';

export const ENVIRONMENT: EnvironmentVariable[] = [
  { name: 'GIT_HANDOFF_SESSION', description: "this session's id, after --session and before each client's own variable below" },
  ...SESSION_VARS.map(([name, client]) => ({
    name,
    description: `the session id ${client} gives its shell (read after GIT_HANDOFF_SESSION${PLUGIN_SESSION_VARS.has(name) ? '; set by the git-handoff plugin' : ''})`,
  })),
  { name: CLIENT_VAR, description: `the client a session given by --session or GIT_HANDOFF_SESSION belongs to: ${CLIENT_NAMES.join(', ')} (or an alias)` },
  { name: ROLE_VAR, description: 'the role this reader has, for handoffs addressed to role:<slug> (what --role gives)' },
  { name: 'GIT_HANDOFF_BYPASS', description: 'set to 1 to let a person through the hooks and the guard; every bypass is logged' },
  { name: COLOR_OFF_VAR, description: 'set (to anything) to turn colour off, unless --color=always' },
];
