// `git handoff githook <name> [args]`: what the installed stubs call (issue 4 fills this in).
export async function runGithook(_name: string, _args: string[]): Promise<number> {
  process.stderr.write('git-handoff: githook handlers are not built yet\n');
  return 0;
}
