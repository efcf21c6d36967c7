/**
 * mcp-chat beside real peers: `mcp-chat ask`, `codex exec --oss` and `opencode run`, each given
 * the same MCP server (the calculator over stdio) and the same scripted model, on three prompts:
 * an answer with no tool, one tool call, three calls in one reply. The clients take turns, round
 * by round; each figure is a median of its runs, and each peer's ratio to mcp-chat is peer over
 * mcp-chat. The peers are installed on demand into the benchmark's cache; one that cannot be
 * installed or started, or fails its first run, is skipped with the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client, ClientWorld } from './lib/clients/client.js';
import { codexClient } from './lib/clients/codex.js';
import { installPeer, PEER_PACKAGES, peersDir, type PeerPackage } from './lib/clients/install.js';
import { mcpChatClient } from './lib/clients/mcp-chat.js';
import { opencodeClient } from './lib/clients/opencode.js';
import { ScriptedModel } from './lib/model/server.js';
import { PROMPT_KINDS, PROMPTS, type PromptKind } from './lib/model/script.js';
import { ahead, clientFigures, FIGURES, ratios, type PeerRun } from './lib/peers/figures.js';
import { roundOrder } from './lib/peers/rotation.js';
import { runClient } from './lib/peers/session.js';
import { REPO_ROOT, serverMain } from './lib/paths.js';
import { benchmarkResult, type BenchmarkResult, type PeerComparison, type PeerKindRow } from './lib/results.js';

/**
 * Rounds a prompt: ten a client, after one warm-up each (first runs fill caches a user's machine has
 * warm). `MCP_CHAT_BENCH_PEER_ROUNDS` takes fewer for a quick look.
 */
const ROUNDS = Number(process.env.MCP_CHAT_BENCH_PEER_ROUNDS) || 10;
const WARMUP = 1;
const MODEL = 'qwen3:8b';

const say = (line: string): void => void process.stdout.write(`  ${line}\n`);

function world(model: ScriptedModel, root: string, client: string): ClientWorld {
  const dir = path.join(root, client);
  fs.mkdirSync(dir, { recursive: true });
  const server = { name: 'calculator', command: process.execPath, args: [serverMain('calculator')] };
  return { modelUrl: model.url, model: MODEL, server, dir };
}

const PEER_CLIENTS: Record<PeerPackage['id'], (world: ClientWorld, binary: string, version: string) => Client> = {
  codex: codexClient,
  opencode: opencodeClient,
};

interface Lineup {
  clients: Client[];
  skipped: Array<{ client: string; reason: string }>;
}

/** mcp-chat and every peer that installs, starts and does a first run's work. */
async function lineUp(model: ScriptedModel, root: string): Promise<Lineup> {
  const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  const ours = mcpChatClient(world(model, root, 'mcp-chat'), version);
  const first = await runClient(ours, 'one-call', model);
  if (!first.verdict.ok) throw new Error(`mcp-chat itself failed its first run: ${first.verdict.reason}`);
  const lineup: Lineup = { clients: [ours], skipped: [] };
  say(`peers are installed on demand into ${peersDir()}`);
  for (const pkg of PEER_PACKAGES) {
    const installed = await installPeer(pkg, say);
    if (!installed.ok) {
      lineup.skipped.push({ client: pkg.id, reason: installed.reason });
      say(`skipping ${pkg.id}: ${installed.reason}`);
      continue;
    }
    const client = PEER_CLIENTS[pkg.id](world(model, root, pkg.id), installed.binary, pkg.version);
    const trial = await runClient(client, 'one-call', model);
    if (trial.verdict.ok) lineup.clients.push(client);
    else {
      lineup.skipped.push({ client: pkg.id, reason: `its first run failed: ${trial.verdict.reason}` });
      say(`skipping ${pkg.id}: its first run failed: ${trial.verdict.reason}`);
    }
  }
  return lineup;
}

async function measureKind(kind: PromptKind, clients: Client[], model: ScriptedModel): Promise<Map<string, PeerRun[]>> {
  const runs = new Map<string, PeerRun[]>(clients.map((client) => [client.id, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const client of roundOrder(clients, round)) {
      const run = await runClient(client, kind, model);
      if (round >= WARMUP) runs.get(client.id)?.push(run);
    }
  }
  return runs;
}

function kindRow(kind: PromptKind, clients: Client[], runs: Map<string, PeerRun[]>): PeerKindRow {
  const figures = clients.map((client) => clientFigures(client.id, client.label, runs.get(client.id) ?? []));
  const [ours, ...peers] = figures;
  if (!ours) throw new Error('no mcp-chat figures');
  return {
    kind,
    prompt: PROMPTS[kind].text,
    clients: figures,
    ratios: Object.fromEntries(peers.map((peer) => [peer.client, ratios(ours, peer)])),
  };
}

function targetMet(kinds: PeerKindRow[], skipped: number): boolean {
  const everyRatio = kinds.every((kindRowItem) =>
    Object.values(kindRowItem.ratios).every((byFigure) => FIGURES.every((figure) => ahead(byFigure[figure]))),
  );
  const noFailures = kinds.every((kindRowItem) => kindRowItem.clients.every((client) => client.failures.length === 0));
  return skipped === 0 && everyRatio && noFailures;
}

function progress(row: PeerKindRow): string {
  return Object.entries(row.ratios)
    .map(([peer, byFigure]) => `${peer} ${FIGURES.map((figure) => byFigure[figure].toFixed(2)).join('/')}`)
    .join('; ');
}

export async function benchPeers(): Promise<BenchmarkResult> {
  const began = performance.now();
  const model = await ScriptedModel.start({ model: MODEL });
  // Beside the peers' cache, not under /tmp: codex declines to set up its helpers in a temporary directory.
  fs.mkdirSync(path.dirname(peersDir()), { recursive: true });
  const root = fs.mkdtempSync(path.join(path.dirname(peersDir()), 'runs-'));
  try {
    const lineup = await lineUp(model, root);
    const kinds: PeerKindRow[] = [];
    for (const kind of PROMPT_KINDS) {
      kinds.push(kindRow(kind, lineup.clients, await measureKind(kind, lineup.clients, model)));
      say(`${kind}: peer/mcp-chat (${FIGURES.join('/')}): ${progress(kinds.at(-1) as PeerKindRow)}`);
    }
    const peers: PeerComparison = {
      installDir: peersDir(),
      skipped: lineup.skipped,
      kinds,
      targetMet: targetMet(kinds, lineup.skipped.length),
    };
    return benchmarkResult(
      {
        id: 'peers',
        title: 'mcp-chat beside its peers',
        howMeasured:
          'Each client runs as a user runs it, a fresh process per prompt with its stdin closed and its output piped: ' +
          '`mcp-chat ask --yes --config … --host … -m …` (the build), `codex exec --oss --local-provider ollama` and ' +
          '`opencode run`, each with a home and XDG directories of its own in a folder kept for the whole benchmark, and the ' +
          "same MCP server (the project's calculator over stdio). The scripted model (bench/lib/model/) answers every client " +
          'alike, through the API it calls (Ollama `/api/chat` for mcp-chat, the Responses API for codex, Chat Completions for ' +
          'opencode), with native tool calls. Wall time: spawn to exit. CPU: user + system time of the whole process tree ' +
          '(the kernel count of its reaped processes: each client runs under bench/lib/subreaper.py, a child subreaper, so servers ' +
          'a client ends without waiting for them, or leaves behind, are counted too). Peak RSS: the largest sum of resident memory over the tree, sampled from ' +
          '/proc every 20 ms. First model request: spawn to the first generation request reaching the model. Bytes: every ' +
          'request body the client sent the model, side requests (such as a title) included. A run counts only when the model ' +
          'was asked with the calculator offered, the tool calls came back with the right results, the answer was printed and ' +
          'the client exited 0. Ratios are the peer median over the mcp-chat median: above 1, mcp-chat is ahead.',
        warmup: `${WARMUP} round`,
        runs: `${ROUNDS} rounds a prompt, every client once a round in rotated order`,
      },
      [],
      began,
      { peers },
    );
  } finally {
    await model.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
