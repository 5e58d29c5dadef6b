// dist/mcp.cjs: what only `git handoff mcp`, an install naming an MCP client and doctor where one is wired load (the SDK, zod, jsonc-parser).
export { serveMcp } from './server';
export { doctorMcpClients, installMcpClient, uninstallMcpClient } from '../install/mcp-config';
