// `git handoff template`: the sections a good handoff has.
import type { Argv, CommandModule } from 'yargs';
import { TEMPLATE_SECTIONS, templateText } from '../../handoff/store/template';
import type { GlobalArgs } from '../context';
import { printJson } from '../output';

export const templateCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'template',
  describe: 'print the sections a good handoff has: Goal, State, Done, Ruled out, Next action, Stop conditions, Important files',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .example('$0 template > notes.md && $EDITOR notes.md && $0 write auth-refactor -F notes.md', '')
      .example('$0 write auth-refactor --template', 'on a terminal: edit the template in your git editor, then write it') as Argv<GlobalArgs>,
  handler: (a) => {
    if (a.json) return printJson({ sections: TEMPLATE_SECTIONS.map((s) => ({ name: s.name, hint: s.hint })), text: templateText() });
    process.stdout.write(templateText());
  },
};
