// `git handoff guard -h`: the guard itself is run by the launcher without the CLI (it answers before every tool
// call); this module only gives it a help text and a place in `git handoff -h`.
import { CLIENT_NAMES } from '../../clients/names';
import { HandoffError } from '../../errors';
import { command } from '../context';

export const guardCommand = command({
  command: 'guard',
  describe: 'the hook program agent clients run before and after each tool call (reads the payload on stdin)',
  builder: (y) =>
    y
      .usage(
        `$0 guard [--client=${CLIENT_NAMES.join('|')}]\n\n` +
          'Reads one hook payload (JSON) on stdin and answers in the client\'s own shape: denies what would break a ' +
          "handoff's ownership or another session's commits, records the paths a session wrote, and gives the " +
          'session-start view. `git handoff install --agent <client>` wires it; you do not run it by hand. ' +
          'Allowing prints nothing and exits 0 (a client that reads only the exit status is refused with exit 2 and the reason on stderr); an internal error allows and is logged to <git-common-dir>/handoff/guard.log.',
      )
      .example('echo \'{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}\' | $0 guard', 'allows: prints nothing'),
  handler: () => {
    // only reached through the CLI bundle, which the launcher never uses for the guard itself
    throw new HandoffError('usage', 'guard-direct', 'run `git-handoff guard` through the launcher (bin/git-handoff), with the payload on stdin');
  },
});
