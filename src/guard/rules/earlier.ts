// What a line changed before a later command of it acts (the guard judges the line before any of it runs): symlinks
// made (a write through one is judged where it leads), and the index or HEAD changed (a later discard of them is
// judged as deleting what the earlier commands named, every path git status lists, or every file of the worktree).
import path from 'node:path';
import { programName, type SimpleCommand } from '../shell/command';
import type { GitInvocation } from '../shell/git';
import { given } from '../shell/options';
import { copyOperands, type WriteTarget } from '../shell/writes';
import { gitOptions } from './git-options';
import { pathspecTarget } from './git-files';
import type { WorktreeEffect } from './worktree';

export class Earlier {
  /** symlinks made earlier on the line: where each is → where it leads */
  private links = new Map<string, string>();
  /** paths named by earlier commands that changed the index, each a pathspec as written, with its directory */
  private staged: Array<{ spec: string; cwd: string | null }> = [];
  /** an earlier command changed the index in a way the line does not show (`add -A`, `read-tree`, …) */
  swept = false;
  /** an earlier command put another tree in the index or HEAD (`read-tree <tree>`, `checkout --orphan`, `update-ref HEAD`):
   *  what a later discarding command deletes or writes may be any tracked file */
  private replaced = false;
  /** remotes defined earlier on the line (`git remote add|set-url <name> <url>`, `git config remote.<name>.url <url>`): name → URL */
  readonly remotes = new Map<string, string>();

  /** Takes in what `cmd` (read as git: `inv`, doing `effect` to the worktree) changes for the commands after it. */
  note(cmd: SimpleCommand, inv: GitInvocation | null, effect: WorktreeEffect | null, abs: (p: string, cwd: string | null) => string | null): void {
    const prog = programName(cmd.argv);
    if (prog === 'ln' || prog === 'cp') this.noteLinks(cmd, prog, abs);
    // a link made earlier, moved: it leads to the same place under its new name
    if (prog === 'mv' && this.links.size) {
      const ops = cmd.argv.slice(1).filter((a) => !a.startsWith('-'));
      const from = ops.length === 2 ? abs(ops[0], cmd.cwd) : null;
      const to = ops.length === 2 ? abs(ops[1], cmd.cwd) : null;
      if (from && to && this.links.has(from)) this.links.set(to, this.links.get(from)!);
    }
    if (!inv) return;
    const o = gitOptions(inv);
    const ops = o.operands;
    const named = o.dashdash < 0 ? ops : ops.slice(o.dashdash);
    const stage = (paths: string[]) => this.staged.push(...paths.map((spec) => ({ spec, cwd: inv.cwd ?? cmd.cwd })));
    if (inv.sub === 'remote' && (ops[0] === 'add' || ops[0] === 'set-url') && ops.length >= 3) this.remotes.set(ops[1], ops[ops.length - 1]);
    const url = inv.sub === 'config' ? /^remote\.(.+)\.(push)?url$/i.exec(ops[0] ?? '') : null;
    if (url && ops.length >= 2) this.remotes.set(url[1], ops[ops.length - 1]);
    if (inv.sub === 'read-tree' || ((inv.sub === 'checkout' || inv.sub === 'switch') && given(o, '', '--orphan')) || ((inv.sub === 'symbolic-ref' || inv.sub === 'update-ref') && ops.includes('HEAD'))) this.replaced = true;
    // the index changed wholesale: a tree read, another commit's or a stash's changes applied, a reset of the index alone
    if (effect?.kind === 'apply' || inv.sub === 'read-tree' || (inv.sub === 'reset' && !effect)) this.swept = true;
    switch (inv.sub) {
      case 'add':
        if (given(o, 'Au', '--all', '--update', '--pathspec-from-file') || named.length === 0) this.swept = true;
        stage(named);
        return;
      case 'rm':
      case 'mv':
        stage(named);
        return;
      case 'update-index':
        if (given(o, '', '--index-info', '--stdin', '--cacheinfo')) this.swept = true;
        stage(named);
        return;
      case 'restore':
        if (given(o, 'S', '--staged')) stage(named);
        return;
      case 'checkout':
        // `checkout <tree-ish> -- <paths>` sets the index from the tree for those paths
        if (o.dashdash > 0) stage(named);
        return;
      case 'apply':
        if (given(o, '', '--cached', '--index')) this.swept = true;
    }
  }

  /** `ln -s SRC… DST`, `cp -s`: each link made and where it leads (relative to the link's directory, or with -r to cwd). */
  private noteLinks(cmd: SimpleCommand, prog: string, abs: (p: string, cwd: string | null) => string | null): void {
    const { o, into, ...named } = copyOperands(prog, cmd.argv.slice(1));
    if (!given(o, 's', '--symbolic')) return;
    const relative = prog === 'ln' && given(o, 'r', '--relative');
    // a lone operand is linked into the current directory
    const [sources, dest] = named.dest === undefined ? [o.operands, '.'] : [named.sources, named.dest];
    const intoDir = into !== undefined || sources.length > 1 || dest.endsWith('/') || dest === '.';
    for (const src of sources) {
      // a link whose place or target the guard cannot resolve is no link it can follow; the write through it is judged as written
      const link = abs(intoDir ? path.join(dest, path.basename(src)) : dest, cmd.cwd);
      const from = path.isAbsolute(src) || relative || prog === 'cp' ? abs(src, cmd.cwd) : link && path.resolve(path.dirname(link), src);
      if (link !== null && from) this.links.set(link, from);
    }
  }

  /** Where a path leads through the links made earlier on the line (chains followed a few steps), besides itself. */
  through(p: string): string[] {
    const out: string[] = [];
    let cur = p;
    for (let step = 0; step < 8 && this.links.size; step++) {
      let next: string | null = null;
      for (const [link, to] of this.links) {
        if (cur === link) next = to;
        else if (cur.startsWith(link + path.sep)) next = to + cur.slice(link.length);
        if (next !== null) break;
      }
      if (next === null || out.includes(next)) break;
      out.push(next);
      cur = next;
    }
    return out;
  }

  /** What a discarding command (`effect`) deletes of what the line changed before it; `swept`: every path git status lists. */
  discarded(effect: WorktreeEffect | null, top: string | null): { targets: WriteTarget[]; swept: boolean } {
    // what makes the worktree match the index or HEAD, or removes what is untracked
    const discards = effect?.kind === 'discard' || effect?.kind === 'remove' || (effect?.kind === 'switch' && effect.force);
    if (!discards || (!this.staged.length && !this.swept && !this.replaced)) return { targets: [], swept: false };
    const targets: WriteTarget[] = this.replaced && top !== null ? [{ path: top, kind: 'delete', cwd: null }] : [];
    for (const s of this.staged) targets.push(pathspecTarget(s.spec, s.cwd, top, 'delete'));
    return { targets, swept: this.swept };
  }
}
