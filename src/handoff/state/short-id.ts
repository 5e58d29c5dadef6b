// Session ids as people read them: like git's abbreviated object names, the shortest prefix of at least 8
// characters that tells an id apart from every other id shown beside it. Only a hex-ish prefix (of a UUID, a hex
// digest) stands for an id; where the prefix would need other characters (`session-a` beside `session-b`) the
// id is shown whole, since such a prefix says nothing.

export const SHORT_MIN = 8;
const HEXISH = /^[0-9a-f][0-9a-f-]*$/i;

/** `id` as shown beside `among` (which may include `id` itself); '(none)' for no id. */
export function shortId(id: string | null | undefined, among: Iterable<string | null | undefined> = []): string {
  if (!id) return '(none)';
  const others = new Set<string>();
  for (const o of among) if (o && o !== id) others.add(o);
  let n = SHORT_MIN;
  const clashes = (k: number) => [...others].some((o) => o.startsWith(id.slice(0, k)));
  while (n < id.length && (clashes(n) || id[n - 1] === '-')) n++;
  return n >= id.length || !HEXISH.test(id.slice(0, n)) ? id : id.slice(0, n);
}
