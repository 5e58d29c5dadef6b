// src/guard/rules/interpreter-writes.ts: code given to an interpreter is judged on the paths it writes as the
// interpreter resolves them — the home however the language reads it, the environment, strings glued or joined, the
// code's arguments and input, perl's two-argument open — and code whose paths cannot be read is refused where it can
// reach the perimeter. `handoff.guard = off` appended to the home's git configuration would turn the guard off
// everywhere: each spelling is refused in every client shape and through the real front, and, run as a client runs
// it, leaves the file as it was; ordinary scripts that write ordinary files run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectShell5, world5 } from '../world-wired';
import { FOREIGN_FILE } from '../world';
import { asClient } from './helpers';

const OFF = String.raw`[handoff]\n\tguard = off\n`;

describe('interpreter code, resolved as the interpreter would', () => {
  it('the home read in each language: appending handoff.guard = off to ~/.gitconfig is refused, and the file stays as it was', async () => {
    const w = await world5();
    const attacks = [
      `python3 -c "import os; open(os.path.expanduser('~/.gitconfig'),'a').write('${OFF}')"`,
      `python3 -c "import os; open(os.path.join(os.path.expanduser('~'), '.gitconfig'),'a').write('${OFF}')"`,
      `python3 -c "from pathlib import Path; (Path.home() / '.gitconfig').open('a').write('${OFF}')"`,
      `python3 -c "import pathlib; p = pathlib.Path.home().joinpath('.gitconfig'); p.write_text(p.read_text() + '${OFF}')"`,
      `python3 -c "import os; open(os.environ['HOME'] + '/.gitconfig', 'a').write('${OFF}')"`,
      `python3 -c "import os; open(os.getenv('HOME') + '/.git' + 'config', 'a').write('${OFF}')"`,
      `python3 -c "import os; open(f\\"{os.environ['HOME']}/.gitconfig\\", 'a').write('${OFF}')"`,
      `python3 - <<'EOF'\nimport os\nopen(os.path.expanduser('~') + '/.gitconfig', 'a').write('${OFF}')\nEOF`,
      `node -e "require('fs').appendFileSync(require('os').homedir() + '/.gitconfig', '${OFF}')"`,
      `node -e "const os = require('os'); require('fs').appendFileSync(require('path').join(os.homedir(), '.gitconfig'), '${OFF}')"`,
      `node -e "require('fs').appendFileSync(process.env.HOME + '/.gitconfig', '${OFF}')"`,
      `node -e "require('fs').appendFileSync(\\\`\\\${process.env.HOME}/.gitconfig\\\`, '${OFF}')"`,
      `perl -e 'open(F, ">>$ENV{HOME}/.gitconfig"); print F "${OFF}"'`,
      `perl -e 'open(my $f, ">>", "$ENV{HOME}/.gitconfig"); print $f "${OFF}"'`,
      `perl -e 'open(F, ">>" . $ENV{"HOME"} . "/.gitconfig"); print F "${OFF}"'`,
      `perl -e 'open(F, ">>", $ARGV[0]); print F "${OFF}"' ~/.gitconfig`,
      `python3 -c "import sys; open(sys.argv[1], 'a').write('${OFF}')" ~/.gitconfig`,
      `ruby -e 'File.write(Dir.home + "/.gitconfig", "${OFF}", mode: "a")'`,
      `ruby -e 'File.open("#{Dir.home}/.gitconfig", "a") { |f| f.write("${OFF}") }'`,
      `ruby -e 'File.open(ENV["HOME"] + "/.gitconfig", "a") { |f| f << "${OFF}" }'`,
      // the XDG file and a client's user settings, from the home too
      `python3 -c "import os; open(os.path.join(os.path.expanduser('~'), '.config', 'git', 'config'), 'a').write('${OFF}')"`,
      `python3 -c "import os, json; open(os.path.expanduser('~/.claude/settings.json'), 'w').write('{}')"`,
      `node -e "require('fs').rmSync(require('os').homedir() + '/.cache/git-handoff', {recursive: true})"`,
      `awk 'BEGIN { printf "[handoff]\\n\\tguard = off\\n" >> ENVIRON["HOME"] "/.gitconfig" }'`,
      `php -r 'file_put_contents(getenv("HOME") . "/.gitconfig", "x", FILE_APPEND);'`,
      // a command line in a string the code runs
      `python3 -c "import os; os.system('printf x >> ~/.gitconfig')"`,
    ];
    await expectShell5(w, attacks, 'deny');
    const before = readFileSync(path.join(w.home, '.gitconfig'), 'utf8');
    for (const a of attacks.slice(0, 3)) expect(asClient(w, a).verdict).toBe('deny');
    expect(readFileSync(path.join(w.home, '.gitconfig'), 'utf8')).toBe(before);
  });

  it("perl's two-argument open names the file after its mode", async () => {
    const w = await world5();
    await expectShell5(
      w,
      [`perl -e 'open(F, ">${FOREIGN_FILE}"); print F "mine"'`, `perl -e 'open(F, "+<${FOREIGN_FILE}"); print F "x"'`, `perl -e 'open F, ">> ${FOREIGN_FILE}"; print F "x"'`],
      'deny',
    );
  });

  it('code whose paths cannot be read is refused where it can reach the perimeter', async () => {
    const w = await world5();
    await expectShell5(
      w,
      [
        // a variable this environment does not hold
        `python3 -c "import os; open(os.path.join(os.environ['GH_NOT_SET'], 'x'), 'w')"`,
        `node -e "require('fs').writeFileSync(process.env.GH_NOT_SET + '/config', '')"`,
        // a name built from characters or decoded, from the home
        `python3 -c "import os; open(os.path.join(os.path.expanduser('~'), ''.join(map(chr, [46, 103, 105, 116, 99, 111, 110, 102, 105, 103]))), 'a').write('x')"`,
        `node -e "require('fs').appendFileSync(require('os').homedir() + '/' + Buffer.from('LmdpdGNvbmZpZw==', 'base64').toString(), 'x')"`,
        `python3 -c "import os; open(os.path.expanduser('~') + '/' + 'gifnoctig.'[::-1], 'a').write('x')"`,
        // a path read from input the guard does not see, code that names the perimeter
        `cat list.txt | python3 -c "import sys; open(sys.stdin.read().strip() + '/.gitconfig', 'a').write('x')"`,
      ],
      'deny',
    );
  });

  it('ordinary scripts that write ordinary files are allowed and run', async () => {
    const w = await world5();
    const ordinary = [
      `python3 -c "open('out.txt', 'w').write('x')"`,
      `python3 -c "import json; json.dump({'a': 1}, open('build.json', 'w'))"`,
      `python3 -c "import base64; open('out.bin', 'wb').write(base64.b64decode('AAAA'))"`,
      `python3 -c "from pathlib import Path; (Path.home() / 'notes.txt').write_text('x')"`,
      `python3 -c "import os; print(open(os.path.expanduser('~/.gitconfig')).read())"`,
      `python3 -c "import os; open(os.path.join(os.getcwd(), 'cwd.txt'), 'w').write('x')"`,
      `node -e "require('fs').writeFileSync('node.json', '{}')"`,
      `node -e "require('fs').mkdirSync(require('os').homedir() + '/scratch', {recursive: true})"`,
      `perl -e 'open(F, ">perl.txt"); print F "x"; close F'`,
      `perl -e 'open(my $f, ">", "perl2.txt"); print $f "x"'`,
      `ruby -e 'File.write("ruby.txt", "x")'`,
      `python3 - <<'EOF'\nwith open('heredoc.txt', 'w') as f:\n    f.write('x')\nEOF`,
    ];
    await expectShell5(w, ordinary, 'allow');
    for (const c of ordinary.filter((c) => !c.startsWith('ruby'))) {
      const r = asClient(w, c);
      expect(r.verdict).toBe('allow');
      expect(r.status, `${c}: ${r.out}`).toBe(0);
    }
    for (const f of ['out.txt', 'build.json', 'out.bin', 'cwd.txt', 'node.json', 'perl.txt', 'perl2.txt', 'heredoc.txt']) expect(readFileSync(path.join(w.repo.dir, f)).length).toBeGreaterThan(0);
    expect(readFileSync(path.join(w.home, 'notes.txt'), 'utf8')).toBe('x');
  });
});
