// Folder trust as Gemini CLI and its fork Qwen Code resolve it (`~/.<dir>/settings.json` security.folderTrust,
// `~/.<dir>/trustedFolders.json`): in an untrusted folder neither runs a project's own hooks.
import path from 'node:path';
import type { ClientName } from './names';
import { trustFile, userDir } from './places';
import { readJsonOr } from '../read-file';

interface FolderTrust {
  state: 'off' | 'trusted' | 'untrusted';
  settings: string;
  trustFile: string;
}

/** The gate of `client` (its user settings and trust file: its record) for `worktree`; `enabledByDefault`: whether trust applies when settings.json does not say. */
export function folderTrust(client: ClientName, worktree: string, enabledByDefault: boolean, env: NodeJS.ProcessEnv = process.env): FolderTrust {
  const settings = path.join(userDir(client, env), 'settings.json');
  const trusts = trustFile(client, env);
  const said = readJsonOr(settings)?.security?.folderTrust?.enabled;
  if (!(said === undefined ? enabledByDefault : said === true)) return { state: 'off', settings, trustFile: trusts };
  const rules: Record<string, unknown> = readJsonOr(trusts) ?? {};
  // the deepest rule covering the folder wins (TRUST_PARENT covers the rule's parent), and at equal depth DO_NOT_TRUST
  const here = path.resolve(worktree);
  let best: { depth: number; trusted: boolean } | null = null;
  for (const [p, level] of Object.entries(rules)) {
    const root = level === 'TRUST_PARENT' ? path.dirname(path.resolve(p)) : path.resolve(p);
    const rel = path.relative(root, here);
    if (rel.startsWith('..') || path.isAbsolute(rel) || (level !== 'TRUST_FOLDER' && level !== 'TRUST_PARENT' && level !== 'DO_NOT_TRUST')) continue;
    const depth = root.split(path.sep).filter(Boolean).length;
    const trusted = level !== 'DO_NOT_TRUST';
    if (!best || depth > best.depth || (depth === best.depth && !trusted)) best = { depth, trusted };
  }
  return { state: best?.trusted ? 'trusted' : 'untrusted', settings, trustFile: trusts };
}
