// The claims as a tree of paths (the page's Claims section): each claimed spec (`src/auth/`, `src/**/*.ts`,
// `README.md`) split at `/`, its holders at the node where the spec ends. Pure: the page and its test share it.

export interface TreeNode<T> {
  /** this node's part of the path (`auth/`), the root's '' */
  name: string;
  /** the whole spec up to here (`src/auth/`) */
  path: string;
  children: Array<TreeNode<T>>;
  /** what holds exactly this spec */
  items: T[];
}

/** The tree of every spec of every entry; siblings in name order, directories (ending in `/`) and files alike. */
export function claimTree<T>(entries: Array<{ paths: string[]; item: T }>): TreeNode<T> {
  const root: TreeNode<T> = { name: '', path: '', children: [], items: [] };
  for (const { paths, item } of entries) {
    for (const spec of paths) {
      const parts = spec.split('/');
      const dir = spec.endsWith('/');
      if (dir) parts.pop();
      let node = root;
      parts.forEach((part, i) => {
        const last = i === parts.length - 1;
        const name = `${part}${last && !dir ? '' : '/'}`;
        let next = node.children.find((c) => c.name === name);
        if (!next) {
          next = { name, path: node.path + name, children: [], items: [] };
          node.children.push(next);
          node.children.sort((a, b) => a.name.localeCompare(b.name));
        }
        node = next;
      });
      if (!node.items.includes(item)) node.items.push(item);
    }
  }
  return root;
}
