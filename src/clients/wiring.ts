// What `install --agent` writes for one client (SPEC 6, docs/clients.md): each client's file in src/clients states
// its own; src/guard/install.ts writes, removes and checks them.
import type { ClientName } from './names';

export interface Wiring {
  /** the client, as the guard's --client= argument names it */
  client: ClientName;
  /**
   * How it is written: `settings`, hook entries merged into a JSON settings file in Claude Code's format;
   * `hooks-file`, a whole hooks file of git-handoff's own (Copilot's `.github/hooks/*.json`); `plugin`, a
   * JavaScript module the client loads (OpenCode).
   */
  format: 'settings' | 'hooks-file' | 'plugin';
  /** the file, relative to the worktree */
  settings: string;
  /** event → tool matcher (undefined: no matcher) */
  events: Record<string, string | undefined>;
  /** the after-tool event, whose command also says `--after`: the sh front then answers with no note pending without reading the payload */
  after?: string;
  /** in the unit the client counts hook timeouts in */
  timeout: number;
  /** each hook entry carries `name: git-handoff` */
  named: boolean;
  /** the instructions file the startup note goes into */
  notes: string;
  /** where the client reads a project's Agent Skills; null: none is installed */
  skills: string | null;
}
