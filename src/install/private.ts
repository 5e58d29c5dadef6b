// `install --agent … --private`: the wiring install wrote kept out of the repository's history and `git status`
// by lines in <git-common-dir>/info/exclude (never .gitignore, which is shared); uninstall takes them out again.
import { existsSync, writeFileSync } from 'node:fs';
import { readTextOr } from '../read-file';
import path from 'node:path';
import type { Agent } from '../clients/names';
import { WIRING } from '../clients/records';
import type { Repo } from '../git/repo';
import { installWrite, restoreOriginal } from '../handoff/state/install-record';
import { blockLines, withBlock, withoutBlock } from './marked-block';

const START = '# git-handoff install --private (git handoff uninstall removes these lines)';
const END = '# end of git-handoff install --private';

const excludeFile = (repo: Repo) => path.join(repo.commonDir, 'info', 'exclude');

/** The paths install --agent writes for these clients in `worktree`, as exclude patterns anchored at the top. */
function wiringPaths(agents: readonly Agent[], worktree: string): string[] {
  const out = new Set<string>();
  for (const a of agents) {
    const w = WIRING[a];
    out.add(`/${w.settings}`);
    for (const f of w.files?.('', worktree) ?? []) out.add(`/${f.file}`);
    out.add(`/${w.notes}`);
    if (w.skills) out.add(`/${w.skills}/handoff/`);
  }
  return [...out];
}

/** Adds (or updates) the exclude lines for what install wrote; says which, and which are tracked (exclude cannot hide those). */
export function excludeWiring(repo: Repo, agents: readonly Agent[]): string[] {
  const top = repo.worktree!;
  const paths = wiringPaths(agents, top).filter((p) => existsSync(path.join(top, p)));
  const tracked = new Set(repo.trackedPaths(paths.map((p) => `:(top)${p.slice(1)}`)).map((f) => `/${f}`));
  const hidden = paths.filter((p) => ![...tracked].some((t) => t === p || t.startsWith(p)));
  const file = excludeFile(repo);
  const text = readTextOr(file) ?? '';
  const lines = [...new Set([...blockLines(text, START, END), ...hidden])];
  const msgs: string[] = [];
  if (lines.length) {
    // the bytes before the first install are kept, so uninstall gives them back exactly
    installWrite(repo.commonDir, file, withBlock(text, [START, ...lines, END].join('\n'), START, END));
    msgs.push(`.git/info/exclude: ${hidden.map((p) => p.slice(1)).join(', ')} kept out of git status and history (this clone only)`);
  }
  for (const t of tracked) msgs.push(`${t.slice(1)} is tracked: .git/info/exclude cannot hide it, so its change shows in git status (commit it, or restore it with git checkout -- ${t.slice(1)})`);
  return msgs;
}

/** Takes install --private's lines out of info/exclude, leaving the rest of the file as it was. */
export function unexcludeWiring(repo: Repo): string[] {
  const file = excludeFile(repo);
  const text = readTextOr(file);
  const next = text === null ? null : withoutBlock(text, START, END);
  if (next === null) return [];
  if (!restoreOriginal(repo.commonDir, file, (t) => !t.includes(START))) writeFileSync(file, next);
  return ['.git/info/exclude: removed the lines install --private added'];
}
