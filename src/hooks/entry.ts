// `git handoff githook <name> [args]`: what the installed stubs call (issue 4 fills this in).
export async function runGithook(name: string, _args: string[]): Promise<number> {
  if (name === 'pre-receive') return (await import('../sync/receive')).preReceiveHook();
  process.stderr.write('git-handoff: githook handlers are not built yet\n');
  return 0;
}
