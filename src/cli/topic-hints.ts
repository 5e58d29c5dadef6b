// A topic that is not there: what the person probably meant — the same topic on another branch (with the
// `--branch` that reaches it), or a topic of this branch one typo away ("did you mean").
import { quote } from 'shell-quote';
import { HandoffError } from '../errors';
import { openRepo } from '../git/repo';
import { parseRef } from '../handoff/store/names';
import { listHandoffs } from '../handoff/store/store';
import { suggest } from './argv';

/** The not-found error with a hint added, or the error as it was. */
export function withTopicHint(e: unknown, argv: string[], command: string | undefined): unknown {
  if (!(e instanceof HandoffError) || e.code !== 'not-found' || typeof e.data.ref !== 'string') return e;
  const p = parseRef(e.data.ref);
  if (!p || p.branch === null) return e;
  let hint: string | null = null;
  try {
    const rows = listHandoffs(openRepo(), { all: true });
    const elsewhere = [...new Set(rows.filter((r) => r.topic === p.topic && r.branch !== p.branch).map((r) => r.branch))];
    const here = [...new Set(rows.filter((r) => r.branch === p.branch).map((r) => r.topic))];
    const near = suggest(p.topic, here);
    const rest = argv.filter((x) => x !== command);
    const withBranch = (b: string) => `git handoff ${command} ${rest.filter((x, i) => x !== '--branch' && rest[i - 1] !== '--branch').map((x) => quote([x])).join(' ')} --branch ${quote([b])}`;
    if (elsewhere.length) hint = `it is on branch ${elsewhere.join(', ')}: ${withBranch(elsewhere[0])}`;
    else if (near && near !== p.topic) hint = `did you mean ${near}? git handoff ${command} ${rest.map((x) => (x === p.topic ? near : quote([x]))).join(' ')}`;
  } catch {
    return e;
  }
  return hint ? new HandoffError(e.kind, e.code, `${e.message}\n${hint}`, { ...e.data, hint }) : e;
}
