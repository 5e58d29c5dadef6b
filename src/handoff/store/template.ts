// The sections a good handoff has (SPEC 4 `template`): the template, and finding sections in a markdown body.

export const TEMPLATE_SECTIONS = [
  { name: 'Goal', hint: 'What done looks like, in one or two sentences.', match: /^goals?$/i },
  { name: 'State', hint: 'Where things stand now: what works, what is half done, what is broken.', match: /^(current )?state$/i },
  { name: 'Done', hint: 'What this session finished, with commits or files.', match: /^done$/i },
  { name: 'Ruled out', hint: 'What was tried and why it does not work, so nobody tries it again.', match: /^ruled[ -]out$/i },
  { name: 'Next action', hint: 'The one next step, concrete enough to start on without asking.', match: /^next[ -]actions?$/i },
  { name: 'Stop conditions', hint: 'When to stop and ask a person instead of going on.', match: /^stop[ -]conditions?$/i },
  { name: 'Important files', hint: 'Paths the next session should read first, one per line.', match: /^important[ -]files$/i },
];

/** The template's hints, HTML comments stripped when a body is saved from an editor: the title line's, then each section's. */
const HINTS = ['<!-- First line: one sentence saying what this handoff is about (it becomes the subject). -->', ...TEMPLATE_SECTIONS.map((s) => `<!-- ${s.hint} -->`)];

/** The template as markdown: a title line to replace, then each section with its hint. */
export function templateText(): string {
  const parts = [HINTS[0], ''];
  TEMPLATE_SECTIONS.forEach((s, i) => parts.push(`## ${s.name}`, HINTS[i + 1], ''));
  return parts.join('\n');
}

/** A body filled in from the template: hint lines removed, and sections left empty dropped. */
export function stripTemplate(body: string): string {
  const lines = body.replace(/\r\n?/g, '\n').split('\n').filter((l) => !HINTS.includes(l.trim()));
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = /^##\s+(.*)$/.exec(lines[i]);
    if (heading && TEMPLATE_SECTIONS.some((s) => s.name === heading[1].trim())) {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() === '') j++;
      if (j >= lines.length || /^#{1,2}\s/.test(lines[j])) {
        i = j - 1;
        continue;
      }
    }
    out.push(lines[i]);
  }
  const text = out.join('\n').replace(/^\s+/, '').replace(/\s+$/, '');
  return text ? text + '\n' : '';
}

/** The template sections a body has no heading for. */
export function missingSections(body: string): string[] {
  return TEMPLATE_SECTIONS.filter((s) => extractSections(body, [s.match]).length === 0).map((s) => s.name);
}

/** `Goal: …` or `**Next action:** …` opening a paragraph (what `write -m "Goal: …" -m "Next action: …"` makes). */
const LABEL = /^ {0,3}(?:\*\*|__)?([A-Za-z][A-Za-z -]{0,40}?)(?:\*\*|__)?\s*:(?:\*\*|__)?(?:\s|$)/;
const VERSION_HEADING = /^Version by session /;

/**
 * Sections of a body whose title matches one of `wanted`, in body order: ATX sections and paragraphs opened by a label
 * line. `text`: the heading line and its content, up to the next heading of the same or a higher level; `version`: the
 * `Version by session …` heading it sits under (a `sync --resolve --keep both` merge), if any.
 */
export function extractSections(body: string, wanted: RegExp[]) {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const out: Array<{ heading: string; text: string; version?: string }> = [];
  // level 7: a labelled paragraph, closed by a blank line, any heading or another label
  let open: { level: number; heading: string; lines: string[] } | null = null;
  let fence: string | null = null;
  let version: string | undefined;
  const close = () => {
    if (open) out.push({ heading: open.heading, text: open.lines.join('\n').replace(/\s+$/, ''), ...(version ? { version } : {}) });
    open = null;
  };
  for (const line of lines) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f && (!fence || f[1].startsWith(fence))) fence = fence ? null : f[1];
    const h = fence || f ? null : /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(line);
    if (h) {
      const level = h[1].length;
      if (open && level <= (open as { level: number }).level) close();
      const title = h[2].replace(/[:.]\s*$/, '').trim();
      if (VERSION_HEADING.test(title)) version = title;
      if (!open && wanted.some((w) => w.test(title))) {
        open = { level, heading: title, lines: [line] };
        continue;
      }
    }
    const l = fence || f || h ? null : LABEL.exec(line);
    if (open && (open as { level: number }).level === 7 && (line.trim() === '' || l)) close();
    if (l && !open && wanted.some((w) => w.test(l[1].trim()))) {
      open = { level: 7, heading: l[1].trim(), lines: [line] };
      continue;
    }
    if (open) (open as { lines: string[] }).lines.push(line);
  }
  close();
  return out;
}
