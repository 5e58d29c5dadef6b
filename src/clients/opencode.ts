// OpenCode: no hook commands, a plugin that runs the guard before each tool and sets the shell's session (docs/clients.md, OpenCode).
import path from 'node:path';
import { obj, str } from './event';
import type { Answer, ToClaude } from './common';
import { claudeProbe, clientRecord, type ClientRecord, type RecordInput } from './record';
import { agentName, sessionVarOf, type ClientName } from './names';
import { HOOK_TIMEOUT_S } from './wiring';
import { userHome } from '../user-dirs';

const OPENCODE_PLUGIN_FILE = '.opencode/plugin/git-handoff.js';
/** The mark on line 2 of the plugin install writes: what uninstall and doctor recognise as git-handoff's. */
const pluginMark = (label: string) => `// git-handoff plugin for ${label}`;
export const OPENCODE_PLUGIN_MARK = pluginMark('OpenCode');

/** The tools OpenCode (1.18.33) ships that cannot write or run anything: the plugin asks the guard about every other. */
const READ_ONLY = ['read', 'grep', 'glob', 'list', 'todowrite', 'todoread', 'webfetch', 'websearch', 'codesearch', 'question', 'task'] as const;

/** The user's plugin folder: $XDG_CONFIG_HOME/opencode/plugin (~/.config/opencode/plugin). */
export const userPluginFile = (env: NodeJS.ProcessEnv = process.env) =>
  path.join(env.XDG_CONFIG_HOME || path.join(userHome(env), '.config'), 'opencode', 'plugin', 'git-handoff.js');

/** OpenCode's patch tool, under both its names: its text as Claude Code's apply_patch. */
const patch: ToClaude = (a) => ({ tool: 'apply_patch', input: { patch: str(a.patchText) ?? str(a.patch) ?? '' } });

/** OpenCode's tools and camelCase arguments in Claude Code's names. */
const TOOLS: Record<string, ToClaude> = {
  bash: (a) => ({ tool: 'Bash', input: a }),
  write: (a) => ({ tool: 'Write', input: { ...a, file_path: a.filePath, content: a.content } }),
  edit: (a) => ({ tool: 'Edit', input: { ...a, file_path: a.filePath, old_string: a.oldString, new_string: a.newString } }),
  multiedit: (a) => ({ tool: 'MultiEdit', input: { ...a, file_path: a.filePath, edits: (Array.isArray(a.edits) ? a.edits : []).map(obj).map((e) => ({ old_string: e.oldString, new_string: e.newString })) } }),
  apply_patch: patch,
  patch,
};

/** The plugin's own answer: it throws `deny`, merges `args` into the call's, keeps `context` for the model. */
const PLUGIN_ANSWER: Answer = {
  deny: { deny: '$deny' },
  allow: { args: '$input?', context: '$context?' },
  stop: { followUp: '$followUp' },
  ...Object.fromEntries(['post-tool', 'session-start', 'session-end', 'pre-compact', 'other'].map((kind) => [kind, { context: '$context' }])),
};

/** The plugin module install writes, running `command` (the guard, `--client=opencode`) through `sh -c`. */
export const opencodePlugin = (command: string): string => pluginModule('opencode', 'OpenCode', READ_ONLY, command);

/** A plugin module of OpenCode's plugin API for `client` (OpenCode, and Kilo Code, its fork) running the guard through `sh -c`. */
function pluginModule(client: ClientName, label: string, readOnly: readonly string[], command: string): string {
  const agent = agentName(client);
  // the variable shell.env gives every shell: the session id
  const sessionVar = sessionVarOf(client);
  return `// Written by \`git handoff install --agent ${agent}\`; \`git handoff uninstall --agent ${agent}\` removes it.
${pluginMark(label)}: runs the guard before each tool call (a refusal throws, and the model reads it), gives
// the shell ${sessionVar}, puts the handoffs' startup view into the session's system prompt, and asks once
// at session.idle for a handoff note when files changed and none was written. No import beyond node's own.
import { spawn } from "node:child_process"

const GUARD = ${JSON.stringify(command)}
const TIMEOUT_MS = ${HOOK_TIMEOUT_S * 1000}
// the tools that cannot write or run anything: every other tool is the guard's to judge
const READ_ONLY = new Set(${JSON.stringify(readOnly)})

/** One payload to the guard; its answer ({deny}, {args, context}, {context}, {followUp}) or null. */
function ask(payload, cwd) {
  return new Promise((resolve) => {
    let out = ""
    let done = false
    const finish = (v) => { if (!done) { done = true; clearTimeout(timer); resolve(v) } }
    let child
    try {
      child = spawn("sh", ["-c", GUARD], { cwd, stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      return resolve(null)
    }
    const timer = setTimeout(() => { try { child.kill("SIGKILL") } catch {} finish(null) }, TIMEOUT_MS)
    child.stdout.on("data", (d) => (out += d))
    child.on("error", () => finish(null))
    child.on("close", () => { try { finish(out.trim() ? JSON.parse(out) : null) } catch { finish(null) } })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

export const GitHandoff = async ({ directory, client }) => {
  // the user's plugin and a repository's both load: the first for a directory answers, never both
  const loaded = (globalThis.__gitHandoffPlugin ??= new Set())
  if (loaded.has(directory)) return {}
  loaded.add(directory)
  const views = new Map()
  const notes = new Map()
  const nudged = new Set()
  const view = (id) => {
    if (!views.has(id)) views.set(id, ask({ hook_event_name: "SessionStart", session_id: id, cwd: directory, source: "startup" }, directory).then((a) => (a && typeof a.context === "string" ? a.context : null)))
    return views.get(id)
  }
  return {
    event: async ({ event }) => {
      const p = event.properties || {}
      if (event.type === "session.created" && p.info && p.info.id && !p.info.parentID) view(p.info.id)
      if (event.type === "session.idle" && p.sessionID && !nudged.has(p.sessionID)) {
        const a = await ask({ hook_event_name: "Stop", session_id: p.sessionID, cwd: directory, stop_hook_active: false }, directory)
        if (a && typeof a.followUp === "string") {
          nudged.add(p.sessionID)
          Promise.resolve(client.session.prompt({ path: { id: p.sessionID }, body: { parts: [{ type: "text", text: a.followUp }] } })).catch(() => {})
        }
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      if (!input.sessionID) return
      const v = await view(input.sessionID)
      if (v && !output.system.some((s) => s.includes(v))) output.system.push(v)
    },
    "tool.execute.before": async (input, output) => {
      if (READ_ONLY.has(input.tool)) return
      const a = await ask({ hook_event_name: "PreToolUse", session_id: input.sessionID, cwd: directory, tool_name: input.tool, tool_input: output.args, tool_use_id: input.callID }, directory)
      if (!a) return
      if (typeof a.deny === "string") throw new Error(a.deny)
      if (a.args && typeof a.args === "object") Object.assign(output.args, a.args)
      if (typeof a.context === "string") notes.set(input.callID, a.context)
    },
    "tool.execute.after": async (input, output) => {
      const note = notes.get(input.callID)
      if (!note) return
      notes.delete(input.callID)
      output.output = (output.output ? output.output + "\\n\\n" : "") + note
    },
    "shell.env": async (input, output) => {
      if (input.sessionID) output.env.${sessionVar} = input.sessionID
    },
  }
}
`;
}

type PluginClient = Pick<RecordInput, 'name' | 'hookFiles' | 'pluginDirs' | 'readOnly'> & { tools?: Record<string, ToClaude>; skills?: string };

/**
 * A client of OpenCode's plugin API, its plugin module in `pluginFile` (its first project hook file). The plugin's
 * payloads: Claude Code's event names, OpenCode's tools and camelCase arguments (a rewrite is merged into them by the plugin).
 */
export function pluginClient(label: string, { tools, skills, ...r }: PluginClient): ClientRecord {
  const pluginFile = r.hookFiles!.project![0];
  return clientRecord({
    ...r,
    home: { variable: 'XDG_CONFIG_HOME', dir: '.config' },
    mcpNames: '<server>_<tool>',
    shellSession: 'always',
    shape: { tools: { ...TOOLS, ...tools }, source: ['source'] },
    answer: PLUGIN_ANSWER,
    probes: claudeProbe('bash'),
    wiring: {
      settings: pluginFile,
      // tool.execute.before for every tool but the read-only ones
      events: { 'tool.execute.before': undefined, 'tool.execute.after': undefined, 'shell.env': undefined, 'session.created': undefined, 'session.idle': undefined },
      timeoutMs: true,
      skills: skills ?? null,
      files: (command) => [{ file: pluginFile, text: pluginModule(r.name, label, r.readOnly, command) }],
    },
  });
}

export const record: ClientRecord = pluginClient('OpenCode', {
  name: 'opencode',
  hookFiles: {
    project: [OPENCODE_PLUGIN_FILE, 'opencode.json'],
    user: ['$XDG_CONFIG_HOME/opencode/plugin/git-handoff.js', '$XDG_CONFIG_HOME/opencode/opencode.json'],
  },
  pluginDirs: {
    project: ['.opencode/plugin', '.opencode/plugins'],
    user: ['$XDG_CONFIG_HOME/opencode/plugin', '$XDG_CONFIG_HOME/opencode/plugins'],
  },
  readOnly: READ_ONLY,
  // OpenCode reads a project's skills from .agents/skills too (the skill's description reached the model with 1.18.33)
  skills: '.agents/skills',
});
