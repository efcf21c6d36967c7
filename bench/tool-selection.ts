/**
 * Tool selection (issue 16): with the 100 tools of nine real servers (bench/fixtures/
 * many-tools-catalogue.json) at num_ctx 8192, how often the tools a request offers include one
 * that serves it (bench/fixtures/tool-requests.jsonl, requests written as users write them), at
 * budgets of 15, 25 and 40 % of the context, beside sending everything; and what ranking adds to
 * a request against the same request when the catalogue fits and nothing is ranked. The few
 * requests that only make sense mid-conversation carry the turns before them; the rows also say
 * what recall is without that context, and what it costs a request that turns to another server.
 */
import { EmbeddingRanker } from '../src/engine/tool-selection/embedding-ranker.js';
import { catalogueTokens } from '../src/engine/tool-selection/tool-cost.js';
import { type Selection, ToolSelection } from '../src/engine/tool-selection/tool-selection.js';
import { toolProtocol } from '../src/engine/tool-protocol.js';
import type { ToolProtocolName, ToolSpec } from '../src/vocabulary/types.js';
import { createOllamaClient } from '../src/ollama/client.js';
import { createLogger } from '../src/shared/log.js';
import { benchmarkResult, check, row, type BenchmarkResult, type Row } from './lib/results.js';
import { roundTo, summarize } from './lib/stats.js';
import { hasContext, load, type Request } from './lib/tool-requests.js';

const NUM_CTX = 8192;
const BUDGETS = [0.15, 0.25, 0.4];
const RECALL_TARGET = 0.95;
/** Timing passes over the corpus. */
const TIMING_PASSES = 20;
const ADDED_MS_TARGET = 5;
/** What the model reads of a request's tools, the system prompt included: what a small model still follows. */
const OFFERED_CHARACTERS_TARGET = 10_000;

const embeddings = embeddingsFromEnv();

/** What a session knows before a request: the earlier messages, and the tools it used. */
interface Context {
  earlier: string[];
  used: string[];
}
const withContext = (request: Request): Context => ({ earlier: request.earlier ?? [], used: request.used ?? [] });
const withoutContext = (): Context => ({ earlier: [], used: [] });
/** A browser session, for the requests that turn from it to another server. */
const BROWSER_SESSION: Context = { earlier: ['open example.com'], used: ['playwright.browser_navigate'] };

/**
 * An embedding ranker on a real Ollama, when one is named: `BENCH_OLLAMA_HOST` and `BENCH_EMBED_MODEL`
 * (e.g. `nomic-embed-text`). None runs on the machines the bench usually runs on, so by default
 * the recall rows are the ranking by words alone, and say so.
 */
function embeddingsFromEnv(): EmbeddingRanker | undefined {
  const host = process.env.BENCH_OLLAMA_HOST;
  const model = process.env.BENCH_EMBED_MODEL;
  if (!host || !model) return undefined;
  const log = createLogger({ level: 'silent', file: null });
  const settings = {
    baseUrl: host,
    model,
    timeoutMs: 120_000,
    numCtx: NUM_CTX,
    toolMode: 'auto' as const,
    options: {},
  };
  const client = createOllamaClient(settings, log);
  return new EmbeddingRanker({ model, embed: (texts) => client.embed(model, texts) }, log);
}

/** A fresh session that has seen `context`, as the orchestrator would have told it. */
function sessionWith(context: Context, numCtx: number, share: number, embedded = true): ToolSelection {
  const selection = new ToolSelection({
    numCtx,
    budgetShare: share,
    alwaysInclude: {},
    ...(embeddings && embedded ? { embeddings } : {}),
  });
  for (const name of context.used) {
    const at = name.indexOf('.');
    selection.noteUsed({ server: name.slice(0, at), tool: name.slice(at + 1) });
  }
  return selection;
}

/** What the model reads of the offer: the system prompt and, natively, the request's tool definitions. */
function offeredCharacters(name: ToolProtocolName, chosen: Selection): number {
  const protocol = toolProtocol(name);
  const definitions = protocol.offer(chosen.tools);
  return (
    protocol.systemPrompt(chosen.tools, chosen.listed).length + (definitions ? JSON.stringify(definitions).length : 0)
  );
}

/** Whether a request, after `context`, offers one of the tools that serve it, per request. */
async function hits(
  tools: ToolSpec[],
  requests: Request[],
  share: number,
  protocol: ToolProtocolName,
  context: (request: Request) => Context = withContext,
) {
  const results: { request: Request; hit: boolean; offered: number; listed: number; characters: number }[] = [];
  for (const request of requests) {
    const before = context(request);
    const selection = sessionWith(before, NUM_CTX, share);
    const chosen = await selection.select(tools, protocol, { message: request.request, earlier: before.earlier });
    const offered = new Set(chosen.offer.tools.map((tool) => tool.name));
    const listed = chosen.offer.tools.filter((tool) => tool.listed).length;
    results.push({
      request,
      hit: request.expected.some((name) => offered.has(name)),
      offered: chosen.offer.tools.length,
      listed,
      characters: offeredCharacters(protocol, chosen),
    });
  }
  return results;
}

type Hits = Awaited<ReturnType<typeof hits>>;
const recallOf = (results: Hits): number => results.filter((result) => result.hit).length / results.length;
/** The first few requests missed: what to read next when tuning (never asked of the held-out set). */
const misses = (results: Hits): string =>
  results
    .filter((result) => !result.hit)
    .map((result) => result.request.request)
    .slice(0, 12)
    .join(' | ');

/** Recall per server, by the server of each request's first expected tool. */
function perServer(results: Hits): string {
  const servers = [...new Set(results.map((result) => result.request.expected[0]?.split('.')[0] ?? ''))].sort();
  return servers
    .map((server) => {
      const mine = results.filter((result) => result.request.expected[0]?.startsWith(`${server}.`));
      return `${server} ${recallOf(mine).toFixed(2)} (${mine.length})`;
    })
    .join(', ');
}

type Corpus = ReturnType<typeof load>;

async function recallRow({ tools, requests, intents, heldOut }: Corpus, share: number): Promise<Row> {
  const native = await hits(tools, requests, share, 'native');
  const everyday = await hits(tools, intents, share, 'native');
  const unseen = await hits(tools, heldOut, share, 'native');
  const text = await hits(tools, requests, share, 'json');
  const bare = await hits(tools, requests, share, 'native', withoutContext);
  // Requests that turn to another server: every one not served by the browser, asked in a browser session.
  const elsewhere = requests.filter(
    (request) => !hasContext(request) && !request.expected[0]?.startsWith('playwright.'),
  );
  const turned = await hits(tools, elsewhere, share, 'native', () => BROWSER_SESSION);
  const alone = await hits(tools, elsewhere, share, 'native', withoutContext);
  const everything = catalogueTokens(tools, 'native');
  const characters = summarize(native.map((result) => result.characters)).median;
  const budget = Math.floor(NUM_CTX * share);
  const percent = `${Math.round(share * 100)} %`;
  return row({
    name: `recall at ${percent} of num_ctx ${NUM_CTX}`,
    unit: '',
    measured: summarize([recallOf(native)]),
    baselineLabel: 'send every tool (recall 1 by definition, at the cost beside)',
    baseline: summarize([1]),
    checks: () =>
      share === 0.25
        ? [
            check('recall', recallOf(native), '>=', RECALL_TARGET),
            check('offered characters, median', characters, '<=', OFFERED_CHARACTERS_TARGET),
          ]
        : [],
    details: {
      'budget, tokens': budget,
      'tools offered, median (native)': summarize(native.map((result) => result.offered)).median,
      'of them listed in the system prompt, median (native)': summarize(native.map((result) => result.listed)).median,
      'offered catalogue, characters, median (native: tools and system prompt)': characters,
      'offered catalogue, characters, median (json mode: the system prompt)': summarize(
        text.map((result) => result.characters),
      ).median,
      'recall per server (native)': perServer(native),
      [`recall of the ${intents.length} requests in everyday intent words (native; tuned on)`]: `${roundTo(recallOf(everyday), 3)}; per server: ${perServer(everyday)}; misses: ${misses(everyday)}`,
      [`recall of the ${heldOut.length} held-out requests (native; not used for tuning)`]: `${roundTo(recallOf(unseen), 3)}; per server: ${perServer(unseen)}; offered characters, median ${summarize(unseen.map((result) => result.characters)).median}`,
      'recall without the conversation context (native)': roundTo(recallOf(bare), 3),
      [`recall of the ${elsewhere.length} requests not for the browser, asked in a browser session (native)`]: `${roundTo(recallOf(turned), 3)} (${roundTo(recallOf(alone), 3)} as a conversation's first message)`,
      'recall with text tool calls (json mode: every tool a line a parameter, so fewer fit)': roundTo(
        recallOf(text),
        3,
      ),
      'tools offered, median (json mode)': summarize(text.map((result) => result.offered)).median,
      'send everything, tokens': `${everything} (${roundTo(everything / budget, 1)}× this budget; over the whole context)`,
      misses: misses(native),
    },
  });
}

/**
 * Milliseconds a request's tools take to choose and write (after its context), with the given
 * context size: `select`, and the system prompt with the tools it lists.
 */
async function selectTimes(tools: ToolSpec[], requests: Request[], numCtx: number): Promise<number[]> {
  const times: number[] = [];
  const native = toolProtocol('native');
  for (let pass = 0; pass < TIMING_PASSES; pass++) {
    for (const request of requests) {
      const before = withContext(request);
      const selection = sessionWith(before, numCtx, 0.25, false);
      const start = performance.now();
      const chosen = await selection.select(tools, 'native', { message: request.request, earlier: before.earlier });
      native.systemPrompt(chosen.tools, chosen.listed);
      times.push(performance.now() - start);
    }
  }
  return times;
}

export async function benchToolSelection(): Promise<BenchmarkResult> {
  const began = performance.now();
  const corpus = load();
  const { tools, requests, intents, heldOut } = corpus;
  const rows = await Promise.all(BUDGETS.map((share) => recallRow(corpus, share)));
  // Warm the caches both paths keep per catalogue (index, costs), as a running session has them.
  await selectTimes(tools, requests.slice(0, 1), NUM_CTX);
  await selectTimes(tools, requests.slice(0, 1), 1_000_000);
  const ranked = summarize(await selectTimes(tools, requests, NUM_CTX));
  const fits = summarize(await selectTimes(tools, requests, 1_000_000));
  rows.push(
    row({
      name: 'selection time per request, ms',
      unit: 'ms',
      measured: ranked,
      baselineLabel: 'the same request when the catalogue fits (nothing ranked)',
      baseline: fits,
      checks: () => [check('median added', ranked.median - fits.median, '<', ADDED_MS_TARGET, 'ms')],
      details: {
        requests: requests.length,
        passes: TIMING_PASSES,
        'p99 added, ms (collections and a busy machine show here)': roundTo(ranked.p99 - fits.median, 2),
      },
    }),
  );
  return benchmarkResult(
    {
      id: 'tool-selection',
      title: 'Tool selection: recall within the budget, and its cost',
      howMeasured:
        `Each of the ${requests.length} requests of bench/fixtures/tool-requests.jsonl as the first message of a conversation, ` +
        `except ${requests.filter(hasContext).length} whose wording presupposes one ("hit enter", "this page"): those come after ` +
        'the earlier messages and used tools the corpus gives them (each row also gives recall without that context, and ' +
        'for the requests not served by the browser, recall when asked in a browser session), ' +
        `with the ${tools.length} tools of bench/fixtures/many-tools-catalogue.json and num_ctx ${NUM_CTX}, ranked ` +
        (embeddings
          ? `by words and by embeddings from ${process.env.BENCH_EMBED_MODEL} on ${process.env.BENCH_OLLAMA_HOST}. `
          : 'by words only (BM25): no embedding model runs here (set BENCH_OLLAMA_HOST and BENCH_EMBED_MODEL to add one). ') +
        `A row's side figures also give recall on the ${intents.length} requests of bench/fixtures/tool-requests-intents.jsonl ` +
        '(first messages in everyday intent words, tuned on) and on the ' +
        `${heldOut.length} requests of bench/fixtures/tool-requests-heldout-4.jsonl, ` +
        'written apart from the corpus and never read while the ranking was tuned. ' +
        'A hit: one of the tools that serve the request is among those ' +
        'offered. Recall is measured for native tool calls (the first five as definitions in the request, the rest as ' +
        'lines of the system prompt) and, as a side figure, for text tool calls (the whole list in the system prompt). ' +
        'The time row times the selection and the system prompt it writes, against the same with a context large ' +
        'enough for every tool, where nothing is ranked.',
      warmup: 'one request per path (builds the index and the cost caches, as a running session has them)',
      runs: `1 pass per budget for recall; ${TIMING_PASSES} passes over the corpus for time`,
    },
    rows,
    began,
  );
}
