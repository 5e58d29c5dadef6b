// A call whose session cannot be read (SPEC 6) is a stranger's: it owns nothing, so it may change nothing any session owns.
import { neutral } from '../terminal-text';

const WHY = "this call's session could not be read (its payload names none, or is in a shape git-handoff does not know), so it owns nothing";
const WAY = 'A client git-handoff wires (`git handoff install --agent <client>`) sends its session with every call.';

/** Why a stranger's write, edit or removal of a protected handoff file is refused. */
export const strangerFileProblem = (shown: string): string => `${neutral(shown)} is a protected handoff file, and ${WHY}: it may change no session's handoff file. ${WAY}`;

/** Why a stranger's `git handoff` command that writes as a session is refused. */
export const strangerHandoffProblem = (command: string): string => `\`${neutral(command)}\` writes as a session, and ${WHY}. ${WAY}`;
