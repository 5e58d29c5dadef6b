// The CLI: hot.ts reads the common command lines of its hot commands, yargs (parser.ts) everything else;
// each command module's handler calls one domain function, errors map to exit codes. The bundle evaluates only
// what the command line needs: parser.ts (yargs, every command) and each hot command's module load at first use.
import { commandOf, helpAlias, precheck } from './argv';
import { HOT_NAMES, hotCommand, hotParse } from './hot';
import { colorSwitches, guardTerminalStreams, reportError } from './output';
import { plainStdio } from './stdio';
import { endPager, pagerSwitches } from './pager';
import { beforeCommand, changeDirectory } from './start';
import { trace } from '../trace';

const parser = () => require('./parser') as typeof import('./parser');

/** A reader that closed the pipe early (`git handoff list | head`) has all it wanted: stop quietly. */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}

// node's own argv: the command line after node and the launcher (what yargs's hideBin gives under node)
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  trace('cli ready');
  plainStdio();
  quietOnClosedPipe();
  guardTerminalStreams();
  if (argv.length === 0) {
    // like `git` alone: the usage, on stderr, and a usage exit code
    process.stderr.write(`${parser().topHelp()}\n`);
    process.exitCode = 2;
    return;
  }
  const json = argv.includes('--json');
  const switches = pagerSwitches(helpAlias(argv));
  let hotRun = false;
  try {
    const args = colorSwitches(switches.argv);
    // the top-level help: yargs's, its commands in groups
    if (!commandOf(args) && args.some((a) => a === '-h' || a === '--help') && !args.includes('--get-yargs-completions')) {
      process.stdout.write(`${parser().topHelp()}\n`);
      return;
    }
    // a hot command is a command: precheck's list of them decides nothing more for it than the full list would
    const hot = HOT_NAMES.includes(commandOf(args)?.name ?? '') ? hotParse(precheck(args, HOT_NAMES)) : null;
    if (hot) {
      hotRun = true;
      // the steps yargs's middlewares take (parser.ts), then the handler yargs would call with these arguments
      trace('parsed', hot.name);
      changeDirectory(hot.args.C as string | string[] | undefined);
      beforeCommand(hot.name, hot.args, switches.noPager);
      const handler = hotCommand(hot.name).handler;
      trace('command module');
      await handler(hot.args as never);
      trace('handler done');
    } else {
      const { buildParser, commands, nameOf } = parser();
      const y = buildParser(precheck(args, [...commands.map(nameOf), 'githook']), { noPager: switches.noPager });
      // parseAsync: some handlers are async (the secret scan of write and import).
      trace('parsed', 'yargs');
      await y.parseAsync();
      trace('handler done');
    }
  } catch (e) {
    const { explained } = require('./error-notes') as typeof import('./error-notes');
    process.exitCode = reportError(explained(e, argv, switches.argv, commandOf(switches.argv)?.name), json);
  }
  await endPager();
  // a hot command has awaited all it started: with its output all written (nothing left in a stream's buffer; a file's
  // stream, written synchronously, keeps none), it ends here, not after the event loop's idle tasks (V8's, ~10 ms
  // after `list --all` of 10,000). 'exit' listeners run as ever (the code cache, the trace's exit line).
  if (hotRun && !(process.stdout.writableLength > 0) && !(process.stderr.writableLength > 0)) process.exit();
}

void main();
