// What a tool call may write or remove (SPEC 10): the rules record here every path they judge, and claims and the
// ledger take their paths from it, so there is one answer to "what does this call write".
import path from 'node:path';
import type { ToolAction } from '../clients/event';
import type { GuardContext } from './context';
import { hunkEdits, parsePatch, type FileOp } from './rules/files';
import type { Location } from './locate';

interface Effect {
  paths: Set<string>; // absolute
  unknown: string | null; // why the call may write paths the guard cannot tell; null: the set is known
}

const effects = new WeakMap<GuardContext, Effect>();

/** Adds what the rules read of this call: paths it may write, or (`unknown`) why it may write others too. */
export function noteEffect(ctx: GuardContext, paths: Iterable<string>, unknown: string | null = null): void {
  const e = effects.get(ctx) ?? { paths: new Set<string>(), unknown: null };
  for (const p of paths) e.paths.add(p);
  e.unknown ??= unknown;
  effects.set(ctx, e);
}

/** The call's effect as the rules read it; a call they did not read (surely harmless, or after the tool): its file action's. */
export function effectOf(ctx: GuardContext): Effect {
  return effects.get(ctx) ?? { paths: new Set(fileOps(ctx.event.action, ctx.event.cwd).map((op) => op.abs)), unknown: null };
}

/**
 * The call's effect by the worktree holding each path (relative to it, as git names paths); a path in no repository
 * left out. A directory it may remove whole (noted with a trailing separator) is given as `dir/` with `trees`
 * (everything under it), else as `dir`.
 */
export function effectByRepo(ctx: GuardContext, trees = false): Array<{ loc: Location; paths: string[] }> {
  const out = new Map<string, { loc: Location; paths: string[] }>();
  for (const noted of effectOf(ctx).paths) {
    const tree = noted.endsWith(path.sep);
    const abs = tree ? noted.slice(0, -1) : noted;
    const loc = ctx.locateFile(abs);
    if (!loc) continue;
    const e = out.get(loc.worktree) ?? { loc, paths: [] };
    e.paths.push(path.relative(loc.worktree, abs).split(path.sep).join('/') + (tree && trees ? '/' : ''));
    out.set(loc.worktree, e);
  }
  return [...out.values()];
}

/** A file tool's operations (`cwd`: the event's): a write, an edit, each file of a patch (a move: its source deleted, its destination written); [] for others. */
export function fileOps(a: ToolAction, cwd: string): FileOp[] {
  if (a.type === 'write') return [{ abs: path.resolve(cwd, a.path), shown: a.path, kind: 'write', content: a.content }];
  if (a.type === 'edit') return [{ abs: path.resolve(cwd, a.path), shown: a.path, kind: 'edit', edits: a.edits }];
  if (a.type !== 'patch') return [];
  const at = path.resolve(cwd, a.cwd ?? '.');
  const ops: FileOp[] = [];
  for (const f of parsePatch(a.patch)) {
    const abs = path.resolve(at, f.path);
    if (f.op === 'add') ops.push({ abs, shown: f.path, kind: 'write', content: f.added.join('\n') });
    else if (f.op === 'delete') ops.push({ abs, shown: f.path, kind: 'delete' });
    else {
      ops.push({ abs, shown: f.path, kind: 'edit', edits: hunkEdits(f) });
      if (f.moveTo) {
        ops.push({ abs, shown: f.path, kind: 'delete' });
        ops.push({ abs: path.resolve(at, f.moveTo), shown: f.moveTo, kind: 'shell' });
      }
    }
  }
  return ops;
}
