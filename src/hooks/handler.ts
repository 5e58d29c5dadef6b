// What a git hook's handler (./commit.ts, ./push.ts, ./transaction.ts) is given, and what it answers: ./entry.ts runs them.
import type { Config } from '../git/config';
import type { Repo } from '../git/repo';
import type { Refusal } from './refusal';

export interface HookContext {
  repo: Repo;
  args: string[];
  /** what git wrote on stdin (reference-transaction, pre-push), else '' */
  input: string;
  /** the acting session, null for a person */
  session: string | null;
  /** where the session came from (an environment variable name) */
  sessionSource: string | null;
  /** the client the session runs in (SPEC 3's names; `cli` when none says), null for a person */
  client: string | null;
  /** the hook's environment, as git gave it */
  env: NodeJS.ProcessEnv;
  /** which build's stub called: this one's, or an older one's, which left node less than this one (or a newer one's) */
  stub: StubBuild;
  config(): Config;
}

export type StubBuild = 'current' | 'older' | 'newer';

export type HookHandler = (c: HookContext) => Refusal | null | Promise<Refusal | null>;
