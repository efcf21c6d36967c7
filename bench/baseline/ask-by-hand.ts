/**
 * The baseline `ask` process: what `mcp-chat ask` does with one tool call, written by
 * hand. Check Ollama while the servers start (bare SDK clients, in parallel), run the
 * turn, print the answer, close the servers. Usage: node ask-by-hand.js <plan.json>
 */
import fs from 'node:fs';
import { connectBare, resultText, type BareServerSpec } from '../lib/bare-client.js';
import { requestJson } from './ollama-by-hand.js';
import { turnByHand, type TurnPlan } from './turn-by-hand.js';

export interface AskPlan extends TurnPlan {
  servers: Array<BareServerSpec & { name: string }>;
}

const plan = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as AskPlan;
const [, , connections] = await Promise.all([
  requestJson(`${plan.ollamaUrl}/api/version`),
  requestJson(`${plan.ollamaUrl}/api/tags`),
  Promise.all(plan.servers.map(async (server) => [server.name, await connectBare(server)] as const)),
]);
const clients = new Map(connections);
const answer = await turnByHand(plan, async (server, tool, args) => {
  const connection = clients.get(server);
  if (!connection) throw new Error(`no server ${server}`);
  return resultText(await connection.client.callTool({ name: tool, arguments: args }));
});
process.stdout.write(`${answer}\n`);
await Promise.all([...clients.values()].map((connection) => connection.close()));
