// `git handoff guard`: one JSON payload on stdin, one decision out (issue 3 fills this in).
export async function runGuard(): Promise<number> {
  return 0;
}
