// The seed tools' file convention (SPEC 6): protected handoff files named handoff-<branch>-<topic>.md whose
// line 1 is `<!-- claude-session: <id> -->`. A session writes only its own; the refusal hands over the marker.
import { readdirSync } from 'node:fs';
import { expands } from '../shell/lex';
import path from 'node:path';
import { describeOverlap, isValidTopic, overlapOf, overlapTokens } from '../../handoff/store/names';
import { SESSION_RE, short } from '../../handoff/state/session';
import { neutral } from '../../terminal-text';
import type { GuardContext } from '../context';
import { headBranch, locate } from '../locate';
// the one reader of the ownership marker, shared with `import` (one file, one owner)
import { markerLine, markerOf, SEED_NAME_RE } from '../../handoff/import/seed-file';
import { readTextOr } from '../../read-file';

export { markerOf };

type FileOpKind = 'write' | 'edit' | 'shell' | 'delete';

export interface FileOp {
  abs: string;
  /** as the tool named it */
  shown: string;
  kind: FileOpKind;
  /** write: the whole new content */
  content?: string;
  /** edit: replaced and replacing text */
  edits?: Array<{ oldText: string; newText: string }>;
}

interface FileVerdict {
  deny?: string;
  warning?: string;
}

/** Whether `handoff-<branch>-<topic>.md` splits, at one of its dashes, into a branch and a valid topic. */
function namesTopic(name: string): boolean {
  const stem = SEED_NAME_RE.exec(name)?.[1] ?? '';
  // a name that starts with a dash names no branch
  return !stem.startsWith('-') && [...stem].some((ch, i) => ch === '-' && isValidTopic(stem.slice(i + 1)));
}

/** Whether a path is a protected handoff file (loaded only for paths that could be one). */
export async function isProtected(ctx: GuardContext, abs: string): Promise<boolean> {
  const base = path.basename(abs);
  const loc = ctx.locateFile(abs);
  const globs = await ctx.protectGlobs(loc);
  // The default pattern, **/memory/handoff-*.md, needs no glob engine.
  // without case too: on a case-insensitive filesystem memory/HANDOFF-x.MD is the same file
  if (/^handoff-.*\.md$/i.test(base) && path.basename(path.dirname(abs)).toLowerCase() === 'memory') return true;
  if (globs.length === 1) return false;
  const { default: picomatch } = await import('picomatch');
  const rel = loc ? path.relative(loc.worktree, abs).split(path.sep).join('/') : null;
  const inside = rel !== null && !rel.startsWith('..') && !path.isAbsolute(rel);
  const posixAbs = abs.split(path.sep).join('/');
  return globs.some((g, i) => {
    const m = picomatch(g, { dot: true });
    if (inside && m(rel!)) return true;
    return (i === 0 || g.startsWith('/')) && m(posixAbs);
  });
}

/** The verdict on one operation on a protected file, for session `me`. */
export function judgeFile(given: FileOp, me: string): FileVerdict {
  // a name that came from the filesystem (a glob, a walk) is shown neutralised
  const op = { ...given, shown: neutral(given.shown) };
  const name = path.basename(op.abs);
  const ours = markerLine(me);
  if (name.startsWith('handoff-') && op.kind !== 'delete' && !namesTopic(name)) {
    const loc = locate(path.dirname(op.abs));
    const branch = (loc && headBranch(loc)) || '<branch>';
    return {
      deny:
        `${op.shown}: a handoff file is named handoff-<branch>-<topic>.md, with a topic of two or more words that are not all ` +
        `stopwords (e.g. handoff-${branch.replace(/\//g, '-')}-auth-refactor.md). "${name}" has no valid topic, so it would collide with every other session's note. ` +
        `Pick a topic that names the work, or store the note with \`git handoff write <topic>\`.`,
    };
  }
  const current = readTextOr(op.abs);
  const owner = current === null ? null : markerOf(current);
  if (current !== null && owner !== null && owner !== me) {
    // the marker is the file's text: a valid session id is shown, anything else only described
    const whose = SESSION_RE.test(owner) ? `session ${short(owner, [me])} (its line 1 is the marker ${markerLine(owner)})` : 'another session (its line 1 is a marker whose id is not a valid session id)';
    return {
      deny:
        `${op.shown} belongs to ${whose}; you are session ${me}. ` +
        `Another session's handoff is not yours to ${op.kind === 'delete' ? 'delete' : 'change'}.\n` +
        `Ways on:\n` +
        `  1. write your own note under a new topic: a new file handoff-<branch>-<your-topic>.md whose line 1 is ${ours}\n` +
        `  2. or keep it in git: git handoff write <your-topic> -m "…" (git handoff write <topic> --take-over --reason "<why>" takes one over on the record)\n` +
        `  3. or ask the person.`,
    };
  }
  if (current !== null && owner === null && current.trim() !== '' && (op.kind === 'edit' || op.kind === 'shell' || op.kind === 'delete')) {
    return {
      deny:
        `${op.shown} has no ownership marker on line 1 (a legacy handoff): editing it in place could clobber whoever wrote it. ` +
        `Write your own note instead (a new handoff-<branch>-<topic>.md whose line 1 is ${ours}), import it with \`git handoff import ${op.shown}\`, or ask the person.`,
    };
  }
  if (op.kind === 'shell' && (current === null || owner !== me)) {
    return {
      deny:
        `${op.shown} is a protected handoff file ${current === null ? 'that does not exist yet' : 'whose line 1 is not your marker'}: a shell command cannot carry ` +
        `the ownership marker, so it may only write a handoff file that already starts with yours. You are session ${me}.\n` +
        `Ways on:\n` +
        `  1. write it with your file-writing tool (not the shell), line 1 exactly: ${ours}\n` +
        `  2. or keep the note in git: git handoff write <topic> -m "…"`,
    };
  }
  if (op.kind === 'write') {
    const claimed = markerOf(op.content ?? '');
    if (claimed === null) {
      return {
        deny:
          `${op.shown} is a protected handoff file: its line 1 must be the ownership marker. You are session ${me}. ` +
          `Prepend this exact line as line 1 and write it again:\n${ours}`,
      };
    }
    if (claimed !== me) {
      return { deny: `${op.shown}: the marker on line 1 names ${SESSION_RE.test(claimed) ? `session ${short(claimed, [me])}` : 'an id that is no valid session id'}, but you are session ${me}. Use your own marker as line 1:\n${ours}` };
    }
  }
  if (op.kind === 'edit' && current !== null && owner === me) {
    if (!keepsMarker(current, op.edits ?? [], me)) return { deny: `${op.shown}: keep line 1 as your ownership marker (${ours}); this edit removes or changes it.` };
  }
  if (current === null && op.kind !== 'delete') {
    const warning = overlapWarning(op.abs);
    if (warning) return { warning };
  }
  return {};
}

/**
 * Whether edits of `current` (line 1 `me`'s marker) surely leave line 1 as it is, each applied in order to its first
 * occurrence: every occurrence starting in line 1 or on its newline must keep line 1; an old text naming a marker must
 * be kept line for line up to it with `me`'s marker in the new text; a pure addition may bring no other marker line.
 */
function keepsMarker(current: string, edits: ReadonlyArray<{ oldText: string; newText: string }>, me: string): boolean {
  const firstLine = (t: string) => t.split('\n', 1)[0];
  let text = current;
  for (const { oldText, newText } of edits) {
    if (/claude-session:/.test(oldText)) {
      if (!newText.includes(markerLine(me))) return false;
      const before = oldText.split('\n');
      const after = newText.split('\n');
      const k = before.findIndex((l) => /claude-session:/.test(l));
      if (before.slice(0, k + 1).some((l, i) => after[i] !== l)) return false;
    }
    // a pure addition is not placed by its text (VS Code's insert: "what line 1 becomes cannot be known"): it may not
    // bring a marker line of anyone else's
    if (oldText === '') {
      if (newText.split('\n').some((l) => /claude-session:/.test(l) && l !== markerLine(me))) return false;
      continue;
    }
    const line1 = firstLine(text);
    for (let at = text.indexOf(oldText); at >= 0 && at <= line1.length; at = text.indexOf(oldText, at + 1)) {
      if (firstLine(text.slice(0, at) + newText + text.slice(at + oldText.length)) !== line1) return false;
    }
    const at = text.indexOf(oldText);
    if (at >= 0) text = text.slice(0, at) + newText + text.slice(at + oldText.length);
  }
  return true;
}

/**
 * True when the file rule allows, saying nothing, a Write or Edit by `me` of a file under the default pattern nowhere
 * near a git directory (no other rule applies to it): the guard's first file answers these alone.
 */
export function surelyOwnFiles(ops: FileOp[], me: string): boolean {
  return ops.length > 0 && ops.every((op) => onlyFileRule(op) && Object.keys(judgeFile(op, me)).length === 0);
}

function onlyFileRule(op: FileOp): boolean {
  const parts = op.abs.split(path.sep);
  // anything refStoreWriteProblem could look at goes to the full guard
  if (expands(op.shown) || parts.includes('.git') || parts.includes('worktrees')) return false;
  return (op.kind === 'write' || op.kind === 'edit') && /^handoff-.*\.md$/.test(path.basename(op.abs)) && path.basename(path.dirname(op.abs)) === 'memory';
}

/** The other handoff files in the folder of `abs`, sorted; null when the folder cannot be read. */
function siblingsOf(abs: string): string[] | null {
  const name = path.basename(abs);
  try {
    return readdirSync(path.dirname(abs)).filter((f) => f !== name && f.startsWith('handoff-') && f.endsWith('.md')).sort();
  } catch {
    return null;
  }
}

/** The seed rule: a new file whose first two non-stopword tokens after `handoff-` (branch words included) are a sibling's. */
function overlapWarning(abs: string): string | null {
  const name = path.basename(abs);
  const stem = (n: string) => SEED_NAME_RE.exec(n)?.[1] ?? '';
  if (overlapTokens(stem(name)).key.length < 2) return null;
  for (const s of siblingsOf(abs) ?? []) {
    const o = overlapOf(stem(name), stem(s));
    if (o) {
      return (
        `git-handoff: ${neutral(name)} overlaps ${neutral(s)} (${describeOverlap(o)}). ` +
        `If that note is yours, update it instead; if not, consider a name that says what is different. (A warning: nothing was blocked.)`
      );
    }
  }
  return null;
}

interface PatchFile {
  op: 'add' | 'update' | 'delete';
  path: string;
  moveTo?: string;
  added: string[];
  /** an update's hunks: the lines each replaces (context, removed; an `@@ <line>` anchor is context) and puts there */
  hunks: Array<{ old: string[]; new: string[] }>;
}

/** A patch file's edits as the file rule judges them: each hunk replaces its old lines with its new lines. */
export const hunkEdits = (f: PatchFile): Array<{ oldText: string; newText: string }> => f.hunks.map((h) => ({ oldText: h.old.join('\n'), newText: h.new.join('\n') }));

/** The files a Codex apply_patch envelope touches, with its + and - lines. */
export function parsePatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let cur: PatchFile | null = null;
  // the hunk a context, removed or added line belongs to: the last, or a first one where no `@@` opened it
  const hunk = () => cur!.hunks.at(-1) ?? (cur!.hunks.push({ old: [], new: [] }), cur!.hunks.at(-1)!);
  // Codex reads its lines without their CR, and a header trimmed (inside an Update's hunks a line led by a space is context)
  for (const line of patch.split(/\r?\n/)) {
    const context: boolean = (cur as PatchFile | null)?.op === 'update' && line.startsWith(' ');
    const h: RegExpExecArray | null = context ? null : /^\*\*\* (Add|Update|Delete) File:(.+)$/.exec(line.trim());
    if (h) {
      cur = { op: h[1].toLowerCase() as PatchFile['op'], path: h[2].trim(), added: [], hunks: [] };
      files.push(cur);
      continue;
    }
    const mv = context ? null : /^\*\*\* Move to:(.+)$/.exec(line.trim());
    if (mv && cur) cur.moveTo = mv[1].trim();
    else if (cur && line.startsWith('@@')) {
      const anchor = line.slice(2).trim();
      cur.hunks.push(anchor ? { old: [anchor], new: [anchor] } : { old: [], new: [] });
    } else if (cur && line.startsWith('+')) {
      cur.added.push(line.slice(1));
      hunk().new.push(line.slice(1));
    } else if (cur && line.startsWith('-')) {
      hunk().old.push(line.slice(1));
    } else if (cur && line.startsWith(' ')) {
      hunk().old.push(line.slice(1));
      hunk().new.push(line.slice(1));
    }
  }
  return files;
}

