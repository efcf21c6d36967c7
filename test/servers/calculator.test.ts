/**
 * The calculator server through a real MCP client: in memory for behaviour, and one real
 * stdio child from the build. The evaluator child is always the compiled one, so build
 * first (`npx tsc -p tsconfig.json`; `npm test` does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChildPath } from '../../servers/calculator/evaluator-process.js';
import { createServer } from '../../servers/calculator/server.js';
import { REPO_ROOT } from '../helpers/server-configs.js';

const MAIN = path.join(REPO_ROOT, 'dist/servers/calculator/main.js');

async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'calculator-test', version: '1.0.0' });
  await Promise.all([createServer({ log: () => {} }).connect(serverSide), client.connect(clientSide)]);
  return client;
}

async function evaluate(client: Client, expression: string): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name: 'evaluate', arguments: { expression } })) as CallToolResult;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return { isError: result.isError === true, text };
}

/** The processes `pid` started that still run (Linux's own list). */
const childrenOf = (pid: number): number[] =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);

let client: Client;

beforeAll(async () => {
  expect(fs.existsSync(defaultChildPath()), 'the calculator is not built: run npx tsc -p tsconfig.json').toBe(true);
  client = await connect();
});

afterAll(async () => {
  await client.close();
});

describe('calculator server', () => {
  it('lists one read-only evaluate tool whose schema takes a bounded expression string', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['evaluate']);
    const [tool] = tools;
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool?.inputSchema.required).toEqual(['expression']);
    expect(tool?.inputSchema.properties?.expression).toMatchObject({ type: 'string', maxLength: 1000 });
    expect(tool?.description).toMatch(/sqrt/);
    expect(tool?.description).toContain('5 inch to cm');
  });

  it('multiplies integers: 1234*5678 → 7006652', async () => {
    expect(await evaluate(client, '1234*5678')).toEqual({ isError: false, text: '7006652' });
  });

  it.each([
    ['sqrt(2)*10', '14.142135623731'],
    ['2/3', '0.66666666666667'],
    ['0.1 + 0.2', '0.3'],
    ['5 inch to cm', '12.7 cm'],
    ['100 km/h to m/s', '27.777777777778 m / s'],
    ['20 degC to degF', '68 degF'],
    ['sin(pi/2) + cos(0)', '2'],
    ['log(100, 10)', '2'],
    ['sin(45 deg)', '0.70710678118655'],
    ['factorial(5)', '120'],
    ['det([1, 2; 3, 4])', '-2'],
    ['[1, 2; 3, 4] * 2', '[[2, 4], [6, 8]]'],
    ['sqrt(-4)', '2i'],
    ['fraction(1, 3) + fraction(1, 6)', '1/2'],
    ['r = 3; pi * r^2', '28.274333882308'],
    ['2^60', '1.1529215046068e+18'],
  ])('evaluates %s → %s', async (expression, expected) => {
    expect(await evaluate(client, expression)).toEqual({ isError: false, text: expected });
  });

  it.each([
    ['foo + 1', 'Error: Undefined symbol foo'],
    ['1 +', 'Error: Unexpected end of expression (char 4)'],
    ['5 kg to m', "Error: Units do not match ('m' != '5 kg')"],
    ['sqrt', 'Error: The result is a function, not a value: call it with arguments, e.g. sqrt(16)'],
  ])('answers %s with an isError result: %s', async (expression, message) => {
    expect(await evaluate(client, expression)).toEqual({ isError: true, text: message });
  });

  it.each([
    ['2**10', '1024'],
    ['2 ** 0.5 * 2 ** 0.5', '2'],
    ['3 × 4', '12'],
    ['10 ÷ 4', '2.5'],
    ['10 − 3', '7'],
    ['√16', '4'],
    ['∛27 + √(9)', '6'],
    ['1,234 * 2', '2468'],
    ['5² + 10⁻¹', '25.1'],
    ['sin(30°)', '0.5'],
    ['2π', '6.2831853071796'],
  ])('model-written syntax: %s → %s', async (expression, expected) => {
    expect(await evaluate(client, expression)).toEqual({ isError: false, text: expected });
  });

  it.each([
    ['10% of 50', 'Error: Undefined symbol of; write "10% of 50" as 10% * 50', '10% * 50', '5'],
    [
      'ln(2)',
      'Error: Undefined function ln; use log(x) for the natural logarithm (log10(x) for base 10)',
      'log(2)',
      '0.69314718055995',
    ],
    [
      '1,5 + 1',
      'Error: Unexpected operator , (char 2); write numbers without separators and with "." for decimals (1234.5); a comma is read as a thousands separator only in groups of three outside brackets (1,234)',
      '1.5 + 1',
      '2.5',
    ],
    ['2 * * 10', 'Error: Value expected (char 5); use ^ for powers, e.g. 2^10', '2^10', '1024'],
    ['3 x 4', 'Error: Undefined symbol x; use * for multiplication, e.g. 3 * 4', '3 * 4', '12'],
  ])(
    'model-written syntax it will not guess: %s → an error saying how to write it, and the retry works',
    async (written, error, retry, value) => {
      expect(await evaluate(client, written)).toEqual({ isError: true, text: error });
      expect(await evaluate(client, retry)).toEqual({ isError: false, text: value });
    },
  );

  it('forgets variables between calls: each call has a fresh scope', async () => {
    expect(await evaluate(client, 'secret = 42')).toEqual({ isError: false, text: '42' });
    expect(await evaluate(client, 'secret')).toEqual({ isError: true, text: 'Error: Undefined symbol secret' });
  });

  it('answers 50 concurrent calls each with its own result', async () => {
    const expressions = Array.from({ length: 50 }, (_, i) => `${i} * ${i} + 1`);
    const results = await Promise.all(expressions.map((expression) => evaluate(client, expression)));
    expect(results).toEqual(expressions.map((_, i) => ({ isError: false, text: String(i * i + 1) })));
  });

  it('agrees with exact integer arithmetic for safe integers (property)', async () => {
    const small = fc.integer({ min: -1e7, max: 1e7 });
    await fc.assert(
      fc.asyncProperty(small, small, fc.constantFrom('+', '-', '*'), async (a, b, op) => {
        const exact = op === '+' ? a + b : op === '-' ? a - b : a * b;
        expect(await evaluate(client, `(${a}) ${op} (${b})`)).toEqual({ isError: false, text: String(exact) });
      }),
      { numRuns: 100 },
    );
  });

  it('serves over real stdio: node dist/servers/calculator/main.js, its evaluator started by the first call', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const stdioClient = new Client({ name: 'calculator-stdio-test', version: '1.0.0' });
    await stdioClient.connect(transport);
    try {
      expect((await stdioClient.listTools()).tools.map((tool) => tool.name)).toEqual(['evaluate']);
      // Listed and idle, the server is one process: mathjs loads only for a session that calculates.
      expect(childrenOf(Number(transport.pid))).toEqual([]);
      expect(await evaluate(stdioClient, '1234*5678')).toEqual({ isError: false, text: '7006652' });
      expect(childrenOf(Number(transport.pid))).toHaveLength(1);
      expect(await evaluate(stdioClient, 'import({x: 1})')).toEqual({
        isError: true,
        text: 'Error: Function import is disabled',
      });
    } finally {
      await stdioClient.close();
    }
  });
});
