// The yaml package, evaluated at its first require (import of a frontmatter file, an MCP client's YAML settings).
export const yamlParser = () => require('yaml') as typeof import('yaml');
