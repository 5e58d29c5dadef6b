// Folder trust as Gemini CLI and its fork Qwen Code resolve it (`~/.<dir>/settings.json` security.folderTrust,
// `~/.<dir>/trustedFolders.json`): in an untrusted folder neither runs a project's own hooks.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface FolderTrust {
  state: 'off' | 'trusted' | 'untrusted';
  settings: string;
  trustFile: string;
}

const readJson = (f: string): any => {
  try {
    return JSON.parse(readFileSync(f, 'utf8'));
  } catch {
    return null;
  }
};

/** The gate for `worktree`; `enabledByDefault`: whether trust applies when settings.json does not say. */
export function folderTrust(dirName: string, worktree: string, enabledByDefault: boolean, env: NodeJS.ProcessEnv = process.env): FolderTrust {
  const dir = path.join(env.HOME || homedir(), dirName);
  const settings = path.join(dir, 'settings.json');
  const trustFile = path.join(dir, 'trustedFolders.json');
  const said = readJson(settings)?.security?.folderTrust?.enabled;
  if (!(said === undefined ? enabledByDefault : said === true)) return { state: 'off', settings, trustFile };
  const rules: Record<string, unknown> = existsSync(trustFile) ? (readJson(trustFile) ?? {}) : {};
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
  return { state: best?.trusted ? 'trusted' : 'untrusted', settings, trustFile };
}
