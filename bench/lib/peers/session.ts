/**
 * One client run of the peer rows: launch it on a prompt, measure its process tree, read
 * what the scripted model saw of it (requests since the run began), and judge it.
 */
import type { Client } from '../clients/client.js';
import type { ScriptedModel } from '../model/server.js';
import { PROMPTS, type PromptKind } from '../model/script.js';
import { runTree } from '../tree-run.js';
import { modelFigures, type PeerRun } from './figures.js';
import { judgeRun } from './verdict.js';

/** A run that has not finished by then has hung: it fails rather than stalls the benchmark. */
const RUN_TIMEOUT_MS = 180_000;

export async function runClient(client: Client, kind: PromptKind, model: ScriptedModel): Promise<PeerRun> {
  const mark = model.requests.length;
  const run = await runTree(client.launch(PROMPTS[kind].text), RUN_TIMEOUT_MS);
  const requests = model.requests.slice(mark);
  return {
    figures: {
      wallMs: run.wallMs,
      cpuMs: run.cpuMs,
      peakRssMb: run.peakRssMb,
      ...modelFigures(run.spawnedAt, requests),
    },
    verdict: judgeRun(kind, run, requests),
  };
}
