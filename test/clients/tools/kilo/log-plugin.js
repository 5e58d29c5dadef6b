// Test plugin for Kilo Code CLI (OpenCode's plugin API): logs every hook call it gets (name, input, output) as one JSON
// line to $PLUGIN_LOG, with the file it was loaded from, and refuses a tool call whose arguments mention BLOCKME by
// throwing in tool.execute.before. With PLUGIN_SET_ENV=1 it adds KILO_SESSION_ID to every shell (shell.env).
import { appendFileSync } from "node:fs"
const LOG = process.env.PLUGIN_LOG || "/tmp/kilo-plugin.log"
const FILE = new URL(import.meta.url).pathname
const log = (hook, input, output) => {
  try { appendFileSync(LOG, JSON.stringify({ t: Date.now(), file: FILE, hook, input, output }) + "\n") } catch {}
}
export const LogPlugin = async (ctx) => {
  log("init", { directory: ctx.directory, worktree: ctx.worktree, project: ctx.project, serverUrl: String(ctx.serverUrl), ctxKeys: Object.keys(ctx), env: Object.fromEntries(Object.entries(process.env).filter(([k]) => /KILO|OPENCODE|SESSION/.test(k) && !/KEY|TOKEN|PASSWORD|CONFIG_CONTENT/.test(k))) })
  return {
    event: async ({ event }) => log("event:" + event.type, event.properties),
    "chat.message": async (input, output) => log("chat.message", input, { parts: output.parts?.length }),
    "permission.ask": async (input, output) => log("permission.ask", input, output),
    "tool.execute.before": async (input, output) => {
      log("tool.execute.before", input, output)
      if (JSON.stringify(output.args ?? {}).includes("BLOCKME")) throw new Error("blocked by test plugin: BLOCKME")
    },
    "shell.env": async (input, output) => {
      log("shell.env", input, { keys: Object.keys(output.env ?? {}) })
      if (process.env.PLUGIN_SET_ENV === "1" && input.sessionID) output.env.KILO_SESSION_ID = input.sessionID
    },
    "tool.execute.after": async (input, output) => log("tool.execute.after", input, output),
    "experimental.chat.system.transform": async (input, output) => {
      log("experimental.chat.system.transform", input, { system: output.system?.length })
      if (process.env.PLUGIN_SYSTEM) output.system.push(process.env.PLUGIN_SYSTEM)
    },
  }
}
