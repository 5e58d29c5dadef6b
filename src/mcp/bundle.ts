// dist/mcp.cjs: what only `git handoff mcp` and an install naming an MCP client load (the SDK, zod, jsonc-parser).
export { serveMcp } from './server';
export { installMcpClient, uninstallMcpClient } from '../install/mcp-config';
