/**
 * The setting of a budget benchmark: the scripted model, and a throwaway directory with the
 * REPL's world (three stdio servers configured, XDG directories of its own), removed after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScriptedModel, type ScriptedModelOptions } from './model/server.js';
import { replWorld, type ReplWorld } from './repl.js';

export const BUDGET_MODEL = 'qwen3:8b';

export async function withBudgetWorld<T>(
  options: Omit<ScriptedModelOptions, 'model'>,
  body: (world: ReplWorld, model: ScriptedModel) => Promise<T>,
): Promise<T> {
  const model = await ScriptedModel.start({ ...options, model: BUDGET_MODEL });
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-chat-budget-')));
  try {
    return await body(replWorld(dir, BUDGET_MODEL), model);
  } finally {
    await model.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
