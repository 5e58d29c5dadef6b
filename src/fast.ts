// The fast entry for `guard` and `githook`: loaded on every agent tool call and git hook, so it bundles
// only their own code (no yargs, no git library). Each handler is loaded only when it is the one asked for.
async function main(): Promise<number> {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'guard') return (await import('./guard/entry')).runGuard();
  const [name, ...args] = rest;
  return (await import('./hooks/entry')).runGithook(name ?? '', args);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`git-handoff: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
