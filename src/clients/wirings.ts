// Every client's wiring by its `install --agent` name (what src/install/agents.ts writes, removes and checks).
import type { Agent } from '../client-names';
import { wiring as claude } from './claude';
import { wiring as codex } from './codex';
import { wiring as copilot } from './copilot';
import { wiring as gemini } from './gemini';
import { wiring as opencode } from './opencode';
import { wiring as qwen } from './qwen';
import type { Wiring } from './wiring';

export const WIRING: Record<Agent, Wiring> = { claude, gemini, codex, copilot, opencode, qwen };
