// `git handoff template`: the sections a good handoff has.
import { TEMPLATE_SECTIONS, templateText } from '../../handoff/store/template';
import { command } from '../context';
import { answer } from '../output';

export const templateCommand = command({
  command: 'template',
  describe: 'print the sections a good handoff has: Goal, State, Done, Ruled out, Next action, Stop conditions, Important files',
  builder: (y) =>
    y
      .example('$0 template > notes.md && $EDITOR notes.md && $0 write auth-refactor -F notes.md', '')
      .example('$0 write auth-refactor --template', 'on a terminal: edit the template in your git editor, then write it'),
  handler: (a) => {
    answer(a.json, { sections: TEMPLATE_SECTIONS.map((s) => ({ name: s.name, hint: s.hint })), text: templateText() }, templateText());
  },
});
