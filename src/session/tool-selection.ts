/**
 * The session's tool selection, from the config: the catalogue's share of the model's context, the tools
 * each server always offers, and ranking by embeddings when a model is named and the client can
 * embed (their vectors kept in the state directory).
 */
import type { ContextSize } from '../engine/context-window.js';
import { EmbeddingRanker } from '../engine/tool-selection/embedding-ranker.js';
import { ToolSelection } from '../engine/tool-selection/tool-selection.js';
import { stateDir } from '../shared/state-dir.js';
import { fileVectorStore } from '../state/vector-store.js';
import type { Runtime } from './runtime.js';
import type { SessionLlm } from './session-host.js';

export function toolSelection(runtime: Runtime, llm: SessionLlm, context: ContextSize): ToolSelection {
  const { config, log } = runtime;
  const model = config.tools.embedModel;
  const embed = llm.embed?.bind(llm);
  const embeddings =
    model !== undefined && embed
      ? new EmbeddingRanker(
          { model, embed: (texts) => embed(model, texts) },
          log,
          fileVectorStore(stateDir(process.env), model, log),
        )
      : undefined;
  return new ToolSelection({
    numCtx: context,
    budgetShare: config.tools.budgetShare,
    alwaysInclude: Object.fromEntries(config.servers.map((server) => [server.name, server.alwaysInclude])),
    ...(embeddings ? { embeddings } : {}),
  });
}
