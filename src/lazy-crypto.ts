// node:crypto takes a few ms to load (every command paid it at start for one hash some paths take): loaded at first use.
let crypto: typeof import('node:crypto') | null = null;
export const createHash = (algorithm: string) => (crypto ??= require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);
