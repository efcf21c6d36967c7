/**
 * The calculator MCP server: one read-only tool, `evaluate`, backed by a restricted mathjs
 * in a bounded child process. Every failure is an `isError` result. No side effects on import.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { errorResult, textResult } from '../shared/tool-results.js';
import { MAX_EXPRESSION_LENGTH } from './protocol.js';
import { Evaluator, defaultChildPath } from './evaluator-process.js';
import { validatorOnFirstUse } from '../shared/validator-on-first-use.js';

export interface CalculatorOptions {
  /** Wall-clock limit of one evaluation (default 2 s); tests use a short one. */
  timeoutMs?: number;
  /** Heap limit of the evaluator process in MB (default 256; mathjs itself needs about 60). */
  maxMemoryMb?: number;
  /** The compiled evaluator entry; defaults to the one next to the build of this module. */
  childPath?: string;
  /** Diagnostics sink (default: stderr, since stdout is the JSON-RPC channel). */
  log?: (line: string) => void;
}

/** Long enough for any real calculation, short enough that a model is not kept waiting. */
const DEFAULT_TIMEOUT_MS = 2_000;
/** Ample for matrices a chat needs; far below what could starve the host. */
const DEFAULT_MAX_MEMORY_MB = 256;

const DESCRIPTION =
  'Evaluate a math expression and return its value. Accepts arithmetic (+ - * / ^ %, parentheses), ' +
  'functions such as sqrt, cbrt, abs, round, exp, log (natural; log(x, base), log10), sin/cos/tan ' +
  '(radians, or with units: sin(45 deg)), factorial, gcd, mean, median, std, det, inv, ' +
  'constants (pi, e, i, phi), complex numbers, matrices ([1, 2; 3, 4]), fractions (fraction(1, 3)), ' +
  'big numbers (bignumber("0.1")) and units with conversion ("5 inch to cm", "100 km/h to m/s", ' +
  '"20 degC to degF"). Several statements may be separated by ";" or newlines, with variables ' +
  '("r = 3; pi * r^2"). Also reads 2**10 as 2^10, ×, ÷, −, √16, x², π, 30° and 1,234 (thousands). ' +
  'Defining functions is not supported. Returns just the value, numbers to ' +
  `14 significant digits; errors start with "Error:". At most ${MAX_EXPRESSION_LENGTH} characters.`;

export function createServer(options: CalculatorOptions = {}): McpServer {
  const evaluator = new Evaluator({
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxMemoryMb: options.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB,
    childPath: options.childPath ?? defaultChildPath(),
    log: options.log ?? ((line: string): void => void process.stderr.write(`${line}\n`)),
  });

  const server = new McpServer(
    { name: 'calculator', version: '0.1.0' },
    {
      jsonSchemaValidator: validatorOnFirstUse(),
      instructions:
        'Use evaluate for any arithmetic, math function or unit conversion instead of computing it yourself.',
    },
  );

  server.registerTool(
    'evaluate',
    {
      title: 'Evaluate expression',
      description: DESCRIPTION,
      inputSchema: {
        expression: z
          .string()
          .min(1)
          .max(MAX_EXPRESSION_LENGTH)
          .describe('The expression, e.g. "1234 * 5678", "sqrt(2) * 10", "5 inch to cm".'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ expression }): Promise<CallToolResult> => {
      const outcome = await evaluator.evaluate(expression);
      return outcome.ok ? textResult(outcome.text) : errorResult(outcome.message);
    },
  );

  // The child process, once the first call has started it, lives as long as the server.
  const previousOnClose = server.server.onclose;
  server.server.onclose = (): void => {
    evaluator.close();
    previousOnClose?.();
  };
  return server;
}
