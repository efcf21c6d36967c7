/**
 * The baseline start-up as a process of its own: the three servers started in parallel by bare
 * SDK clients, each asked for its tools, then all closed. Node's start and the SDK's loading count,
 * as they do for `mcp-chat tools`. Usage: node servers-by-hand.js <servers.json>
 */
import fs from 'node:fs';
import { connectBare, type BareServerSpec } from '../lib/bare-client.js';

const servers = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as BareServerSpec[];
const connections = await Promise.all(servers.map((server) => connectBare(server)));
process.stdout.write(`${connections.reduce((count, connection) => count + connection.tools.length, 0)}\n`);
await Promise.all(connections.map((connection) => connection.close()));
