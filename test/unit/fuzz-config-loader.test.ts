/**
 * Hostile input for the config loader: mutated real config files, deeply nested values in
 * every field, `${VAR}` syntax good and bad, prototype keys, and hostile environment and flags.
 * The contract: a config whose invariants hold, or a ConfigError (exit 2) with a message;
 * never another error, never a polluted prototype, and every case bounded in time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { AppConfig } from '../../src/config/types.js';
import { ConfigError } from '../../src/shared/errors.js';
import { SHIPPED_CONFIG, useConfigDir } from '../helpers/config-dir.js';
import { REPO_ROOT } from '../helpers/server-configs.js';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';

const { options } = useConfigDir();

/** 10,000 writes: in RAM (/dev/shm) where there is one, so a busy disk cannot slow the run tenfold. */
let scratch = '';
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'config-fuzz-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const RUNS = 10_000;

const REAL_FILES = [SHIPPED_CONFIG, path.join(REPO_ROOT, 'test/fixtures/config/claude_desktop_config.json')].map(
  (file) => fs.readFileSync(file, 'utf8'),
);

/** Shallow, or deep enough to overflow a recursive walk of the parsed value (JSON.stringify fails near 5,000). */
type Nesting = [depth: number, brackets: readonly [open: string, close: string]];
const BRACKETS: ReadonlyArray<readonly [string, string]> = [
  ['[', ']'],
  ['{"a":', '}'],
  ['{"__proto__":', '}'],
];
const nesting: fc.Arbitrary<Nesting> = fc.tuple(
  fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 6_000, max: 12_000 })),
  fc.constantFrom(...BRACKETS),
);
const nested = ([depth, [open, close]]: Nesting): string => `${open.repeat(depth)}"\${X}"${close.repeat(depth)}`;
const deepValue = nesting.map(nested);
/** Stands for "a deeply nested value here" in generated objects; replaced in the text afterwards. */
const DEEP = '\u0001deep\u0001';

const VARIABLE_TEXT = [
  '${X}',
  '${X:-d}',
  '${GITHUB_TOKEN}',
  '${',
  '${}',
  '$${X}',
  '\\${X}',
  '${X:-${Y}}',
  '${1A}',
  '${A-b}',
  '${PWD}',
  'Bearer ${GITHUB_TOKEN}',
];
const hostileString = fc.oneof(
  fc.constantFrom(
    ...VARIABLE_TEXT,
    '',
    ' ',
    'stdio',
    'sse',
    'http',
    'remote',
    'https://h/x',
    'file:///etc/passwd',
    'javascript:1',
    '..',
    './a',
    '\u0000',
    '\u202e',
  ),
  fc.string({ unit: fc.constantFrom('$', '{', '}', ':', '-', 'X', '\\', '/', '.', ' ', 'é', '\u0000'), maxLength: 24 }),
  fc.string({ maxLength: 16 }),
);
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
/** Mostly what the field expects, sometimes anything: the validator sees both sides. */
const seconds = fc.oneof(
  { weight: 9, arbitrary: fc.double({ min: 0, max: 600, noNaN: true, minExcluded: true }) },
  fc.double({ min: -1, max: 3e6, noNaN: true }),
);
const field = <T>(expected: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 40, arbitrary: expected }, fc.jsonValue({ maxDepth: 2 }), fc.constant(DEEP));
const stringMap = fc.dictionary(
  fc.oneof(hostileString, fc.constantFrom(...PROTO_KEYS, 'Authorization')),
  field(hostileString),
  { maxKeys: 3 },
);
const localEntry = fc.record(
  {
    type: field(fc.constantFrom('stdio', 'local')),
    command: field(fc.constantFrom('node', 'npx', '${X}', './a.js', 'dist/servers/calculator/main.js', '${X:-node}')),
    args: field(fc.array(hostileString, { maxLength: 3 })),
    env: field(stringMap),
    cwd: field(fc.constantFrom('.', '${PWD}', '${X}', '/nonexistent', '..')),
  },
  { requiredKeys: ['command'] },
);
const remoteEntry = fc.record(
  {
    type: field(fc.constantFrom('remote', 'http', 'sse')),
    url: field(
      fc.constantFrom(
        'https://h/mcp',
        'http://127.0.0.1:1/mcp',
        '${X}',
        'https://h/${GITHUB_TOKEN}',
        'ftp://h',
        '${X:-http://a}',
      ),
    ),
    headers: field(stringMap),
    ca: field(hostileString),
  },
  { requiredKeys: ['url'] },
);
const commonFields = fc.record(
  {
    disabled: field(fc.boolean()),
    timeout: field(seconds),
    alwaysAllow: field(fc.array(hostileString, { maxLength: 2 })),
    description: field(hostileString),
  },
  { requiredKeys: [] },
);
const serverEntry = fc
  .tuple(
    fc.oneof(localEntry, remoteEntry),
    commonFields,
    fc.dictionary(fc.constantFrom(...PROTO_KEYS), field(hostileString), { maxKeys: 1 }),
  )
  .map(([entry, common, extra]) => ({ ...extra, ...entry, ...common }));
const serverName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('calc', 'file', 'github', 'my-server_2') },
  fc.constantFrom('Calc', 'a__b', '', '-x', ...PROTO_KEYS),
  fc.string({ maxLength: 8 }),
);
const configObject = fc.record(
  {
    mcpServers: field(fc.dictionary(serverName, serverEntry, { maxKeys: 3 })),
    mcp_servers: fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      fc.dictionary(serverName, serverEntry, { maxKeys: 1 }),
    ),
    ollama: field(
      fc.record(
        {
          base_url: field(
            fc.constantFrom('http://127.0.0.1:11434', 'localhost:11434', '${X}', 'ftp://x', 'http://[bad'),
          ),
          model: field(fc.oneof({ weight: 5, arbitrary: fc.constantFrom('llama3.2', 'qwen3:8b') }, hostileString)),
          timeout: field(seconds),
          num_ctx: field(fc.integer({ min: -1, max: 1 << 20 })),
          tool_mode: field(fc.constantFrom('auto', 'native', 'json', 'json', 'auto', 'AUTO')),
          options: field(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })),
        },
        { requiredKeys: [] },
      ),
    ),
    history: field(fc.record({ max_messages: field(fc.integer({ min: -2, max: 100 })) }, { requiredKeys: [] })),
    logging: field(
      fc.record(
        { level: field(fc.constantFrom('debug', 'info', 'warn', 'silent', 'loud')), file: field(hostileString) },
        { requiredKeys: [] },
      ),
    ),
  },
  // Mostly present, so the entries behind it get validated and resolved too.
  { requiredKeys: ['mcpServers'] },
);
const configText = fc
  .tuple(configObject, nesting)
  .map(([value, deep]) => JSON.stringify(value).replaceAll(JSON.stringify(DEEP), () => nested(deep)));

type Edit = (text: string) => string;
const offset = (text: string, index: number): number => index % (text.length + 1);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map(
    (i): Edit =>
      (text) =>
        text.slice(0, offset(text, i)),
  ),
  fc
    .tuple(
      fc.nat(),
      fc.nat({ max: 40 }),
      fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '${', '\u0000', '\uFEFF', '//', 'null', '1e999'),
    )
    .map(
      ([i, cut, insert]): Edit =>
        (text) =>
          text.slice(0, offset(text, i)) + insert + text.slice(offset(text, i) + cut),
    ),
  fc.tuple(fc.nat(), deepValue).map(
    ([i, deep]): Edit =>
      (text) =>
        text.slice(0, offset(text, i)) + deep + text.slice(offset(text, i)),
  ),
);
const mutatedReal = fc
  .tuple(fc.constantFrom(...REAL_FILES), fc.array(edit, { minLength: 1, maxLength: 3 }))
  .map(([text, edits]) => edits.reduce((out, apply) => apply(out), text));

const fileText = fc.oneof(
  { weight: 6, arbitrary: configText },
  { weight: 2, arbitrary: mutatedReal },
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  deepValue,
  fc.string({ unit: 'binary', maxLength: 200 }),
);
const environment = fc.record(
  {
    X: hostileString,
    Y: hostileString,
    GITHUB_TOKEN: hostileString,
    OLLAMA_HOST: hostileString,
    MCP_CHAT_MODEL: hostileString,
    MCP_CHAT_LOG_LEVEL: fc.constantFrom('debug', 'info', 'loud', ''),
    MCP_CHAT_LOG_FILE: hostileString,
  },
  { requiredKeys: [] },
);
const flags = fc.record({ host: hostileString, model: hostileString }, { requiredKeys: [] });

/** What every loaded config guarantees to the rest of the program. */
function expectUsable(config: AppConfig): void {
  expect(['http:', 'https:']).toContain(new URL(config.ollama.baseUrl).protocol);
  // Unset, the context is Ollama's to say; set, it is a positive whole number of tokens.
  const { numCtx } = config.ollama;
  expect(numCtx === undefined || (Number.isInteger(numCtx) && numCtx > 0)).toBe(true);
  // A tiny positive timeout in seconds must not round to 0 ms, which some timers take as "none".
  expect(Number.isInteger(config.ollama.timeoutMs) && config.ollama.timeoutMs >= 1).toBe(true);
  expect(path.isAbsolute(config.logging.file)).toBe(true);
  for (const server of config.servers) {
    expect(server.name).toMatch(/^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/);
    expect(Number.isInteger(server.timeoutMs) && server.timeoutMs >= 1).toBe(true);
    if (server.kind === 'remote') expect(['http:', 'https:']).toContain(new URL(server.url).protocol);
    else expect(path.isAbsolute(server.cwd)).toBe(true);
  }
  for (const disabled of config.disabled) expect(disabled.reason.length).toBeGreaterThan(0);
}

describe('config loader under hostile input', () => {
  it(
    `mutated real files, nested values, \${VAR} syntax, prototype keys, hostile env and flags: ${RUNS} runs`,
    () => {
      const file = path.join(scratch, 'fuzz.json');
      const kinds = { loaded: 0, refused: 0 };
      fc.assert(
        fc.property(fileText, environment, flags, (text, env, given) => {
          fs.writeFileSync(file, text);
          let outcome: AppConfig | ConfigError;
          try {
            outcome = loadConfig(options({ configPath: file, env, flags: given }));
          } catch (error) {
            // Anything but the typed error (a TypeError, a RangeError) fails the property right here.
            if (!(error instanceof ConfigError)) throw error;
            outcome = error;
          }
          if (outcome instanceof ConfigError) {
            kinds.refused += 1;
            expect(outcome.exitCode).toBe(2);
            expect(outcome.message.trim().length).toBeGreaterThan(0);
          } else {
            kinds.loaded += 1;
            expectUsable(outcome);
          }
          expect(Object.keys(Object.prototype)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
      // Both outcomes were reached: the generator is not stuck on one side of the validator.
      expect(kinds.loaded).toBeGreaterThan(RUNS / 100);
      expect(kinds.refused).toBeGreaterThan(RUNS / 100);
    },
    CPU_BOUND_MS,
  );
});
