/**
 * The tool-selection bench's requests (bench/fixtures/tool-requests*.jsonl) and the catalogue they
 * are asked against: each request with the tools that serve it, and for a few, the conversation before it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ToolSpec } from '../../src/vocabulary/types.js';
import { PACKAGE_ROOT } from '../../src/shared/paths.js';

const FIXTURES = path.join(PACKAGE_ROOT, 'bench/fixtures');

const Request = z
  .object({
    request: z.string(),
    expected: z.array(z.string()).min(1),
    /** Earlier user messages of the conversation, oldest first. */
    earlier: z.array(z.string()).optional(),
    /** Tools (`server.tool`) the conversation has used, in the order it used them. */
    used: z.array(z.string()).optional(),
  })
  // A used tool is offered whatever the ranking says: one that serves the request would be a hit by construction.
  .refine((request) => !request.used?.some((name) => request.expected.includes(name)), {
    message: '`used` names a tool of `expected`',
  });
export type Request = z.infer<typeof Request>;
/** Requests that may carry context: a few, so recall stays a measure of first messages. */
const MAX_WITH_CONTEXT = 15;

export const hasContext = (request: Request): boolean => request.earlier !== undefined || request.used !== undefined;

function readRequests(file: string): Request[] {
  return fs
    .readFileSync(path.join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => Request.parse(JSON.parse(line)));
}

/**
 * The catalogue, the corpus, and the held-out requests: written apart from the corpus and never
 * read while choosing the ranking's words and weights, so their recall is what requests nobody
 * tuned for get.
 */
export function load(): { tools: ToolSpec[]; requests: Request[]; intents: Request[]; heldOut: Request[] } {
  // `BENCH_CATALOGUE`: another recording, to compare the ranking on it.
  const catalogue = process.env.BENCH_CATALOGUE ?? path.join(FIXTURES, 'many-tools-catalogue.json');
  const tools = JSON.parse(fs.readFileSync(catalogue, 'utf8')) as ToolSpec[];
  const requests = readRequests('tool-requests.jsonl');
  const withEarlier = requests.filter(hasContext).length;
  if (withEarlier > MAX_WITH_CONTEXT)
    throw new Error(`${withEarlier} requests carry context; at most ${MAX_WITH_CONTEXT} may`);
  const intents = readRequests('tool-requests-intents.jsonl');
  const heldOut = readRequests('tool-requests-heldout-4.jsonl');
  if ([...intents, ...heldOut].some(hasContext)) throw new Error('intent and held-out requests are first messages');
  return { tools, requests, intents, heldOut };
}
