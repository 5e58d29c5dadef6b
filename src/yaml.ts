// The yaml package, from dist/yaml.cjs beside the bundle (scripts/build.mjs): no other bundle carries the parser's code.
import path from 'node:path';

export const yamlParser = () => require(path.join(__dirname, 'yaml.cjs')) as typeof import('yaml');
