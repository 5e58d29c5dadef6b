// Handoff refs move only through `git handoff` (and its hooks): raw update-ref, force pushes, overwriting
// fetch refspecs and file writes into the ref store are refused with the command that does it safely.
import path from 'node:path';
import type { GitInvocation, SimpleCommand, WriteTarget } from '../shell';

const HANDOFF_REF = /(^|[\s:+^"'=])refs\/handoff(s|-archive|-leases)(\/|\*|$|[\s"'])/;
export const mentionsHandoffRef = (s: string) => HANDOFF_REF.test(s);

const SAFE_WAYS =
  'Handoff refs only move through git-handoff, which checks ownership by compare-and-swap:\n' +
  '  git handoff write <topic> …      a new version (yours, or --take-over --reason "<why>")\n' +
  '  git handoff archive <topic>      instead of deleting (nothing is lost; restore brings it back)\n' +
  '  git handoff release              instead of deleting a worktree lease\n' +
  '  git handoff sync | push | fetch  instead of pushing or fetching refs/handoffs by hand';

/** Why a git command writes handoff refs behind git-handoff's back, or null. */
export function refCommandProblem(inv: GitInvocation, cmd: SimpleCommand, whole: string): string | null {
  const args = inv.args;
  const named = args.filter(mentionsHandoffRef);
  const show = `git ${inv.sub} ${args.join(' ')}`.trim();
  switch (inv.sub) {
    case 'update-ref':
    case 'symbolic-ref': {
      const viaStdin = args.includes('--stdin') && (mentionsHandoffRef(whole) || cmd.xargs);
      if (named.length || viaStdin || (cmd.xargs && mentionsHandoffRef(whole))) {
        return `\`${show}\` moves a handoff ref directly, bypassing the ownership check.\n${SAFE_WAYS}`;
      }
      return null;
    }
    case 'push': {
      if (args.includes('--mirror')) return `\`${show}\` would force every ref, handoffs included, onto the remote.\n${SAFE_WAYS}`;
      const force = args.some((a) => /^(-f|--force|--force-with-lease.*|--force-if-includes|--delete|-d|--prune)$/.test(a) || /^-[a-zA-Z]*[fd][a-zA-Z]*$/.test(a));
      const forced = named.some((a) => a.startsWith('+') || a.startsWith(':'));
      if (named.length && (force || forced)) return `\`${show}\` force-pushes or deletes handoff refs on the remote.\n${SAFE_WAYS}`;
      return null;
    }
    case 'fetch':
    case 'pull': {
      const overwrite = args.some((a) => a.includes(':') && mentionsHandoffRef(a.slice(a.indexOf(':') + 1)) && /^\+?refs\/handoff/.test(a.slice(a.indexOf(':') + 1)));
      if (overwrite) return `\`${show}\` fetches straight into the local handoff refs, overwriting them.\n${SAFE_WAYS}`;
      return null;
    }
    default:
      return null;
  }
}

/** Why a file write lands in git's ref store (loose handoff refs, packed-refs, the refs directory), or null. */
export function refStoreWriteProblem(target: WriteTarget, abs: string): string | null {
  const parts = abs.split(path.sep);
  const g = parts.lastIndexOf('.git');
  const inGit = g >= 0 || /\/\.git\//.test(abs) || parts.includes('worktrees');
  if (!inGit) return null;
  const rest = g >= 0 ? parts.slice(g + 1).join('/') : abs;
  const hit =
    /(^|\/)refs\/handoff(s|-archive|-leases)(\/|$)/.test(rest) ||
    /(^|\/)packed-refs$/.test(rest) ||
    (target.kind === 'delete' && (rest === '' || rest === 'refs'));
  if (!hit) return null;
  return `writing ${target.path} changes git's ref store behind its back, where handoff refs live.\n${SAFE_WAYS}`;
}
