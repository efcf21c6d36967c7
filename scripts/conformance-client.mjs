/**
 * The client the MCP conformance harness runs for its client scenarios
 * (`conformance client --command "node scripts/conformance-client.mjs" --scenario <name>`):
 * it writes a throwaway mcp-chat config with one remote server entry for the harness's URL (the
 * last argument) and runs our real built CLI to do what the scenario (`MCP_CONFORMANCE_SCENARIO`)
 * needs. Every MCP and OAuth message comes from the CLI; this script never speaks MCP itself.
 * For the auth scenarios it runs `mcp-chat auth` as a person would, with `BROWSER` set to a
 * stand-in browser (scripts/oauth-browser.mjs) that follows the authorization URL back to the
 * CLI's callback; credentials the harness hands out (`MCP_CONFORMANCE_CONTEXT`) go in the entry.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The entry's name: the `call` commands below address the server by it. */
const SERVER = 'conformance';
/** Below the harness's --timeout (30 s by default), so a call that hangs is ended, and said, by the CLI. */
const CALL_TIMEOUT_S = 15;
/** The URL the harness's authorization servers accept as a client id metadata document (SEP-991). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** A person authorises the server in the browser (which lists its tools), then a script uses the stored token. */
const AUTHORISE_THEN_USE = [{ args: ['auth', SERVER] }, { args: ['call', SERVER, 'test-tool'] }];
/** A client of its own (client_credentials): no person, no `auth`; the first 401 gets it a token. */
const USE_DIRECTLY = [{ args: ['call', SERVER, 'test-tool'] }];

/**
 * What each scenario asks of a client, as mcp-chat commands, and what its server entry adds.
 * The tools are the ones each scenario's server offers.
 */
const SCENARIOS = {
  // Connect (initialize, initialized), list the tools, close.
  initialize: { args: ['tools', '--json'] },
  tools_call: { args: ['call', SERVER, 'add_numbers', '{"a":5,"b":3}'] },
  // The server closes the call's SSE stream after a priming event with `retry: 500`; the answer
  // comes only on the GET the client must reopen after 500 ms, with Last-Event-ID (SEP-1699).
  'sse-retry': { args: ['call', SERVER, 'test_reconnection'] },
  // The tool asks an elicitation form whose fields all have defaults; under "allow" mcp-chat
  // accepts it with them (SEP-1034). Sampling is refused outright: this scenario needs none.
  'elicitation-sep1034-client-defaults': {
    args: ['call', SERVER, 'test_client_elicitation_defaults'],
    entry: { elicitation: 'allow', sampling: 'deny' },
  },
  ...Object.fromEntries(
    [
      'metadata-default',
      'metadata-var1',
      'metadata-var2',
      'metadata-var3',
      'scope-from-www-authenticate',
      'scope-from-scopes-supported',
      'scope-omitted-when-undefined',
      'token-endpoint-auth-basic',
      'token-endpoint-auth-post',
      'token-endpoint-auth-none',
      '2025-03-26-oauth-metadata-backcompat',
      '2025-03-26-oauth-endpoint-fallback',
      'offline-access-scope',
      'offline-access-not-supported',
      // mcp-chat has no enterprise-managed authorization (SEP-990, token exchange at an IdP then a
      // JWT bearer grant): tried as a person would, it fails, as the baseline says.
      'cross-app-access-complete-flow',
    ].map((name) => [`auth/${name}`, { steps: AUTHORISE_THEN_USE }]),
  ),
  'auth/basic-cimd': { steps: AUTHORISE_THEN_USE, entry: { oauth: { clientMetadataUrl: CIMD_URL } } },
  // The tool call needs more scope than listing: the script is refused and says so, the next
  // `auth` asks for the scope the server named, and the call then works.
  'auth/scope-step-up': {
    steps: [
      { args: ['auth', SERVER] },
      { args: ['call', SERVER, 'test-tool'], mayFail: true },
      { args: ['auth', SERVER] },
      { args: ['call', SERVER, 'test-tool'] },
    ],
  },
  // The server never grants enough: `auth` gives up after its limit of authorizations (and fails).
  'auth/scope-retry-limit': { steps: [{ args: ['auth', SERVER] }] },
  // The metadata names another resource: `auth` refuses before any authorization (and fails).
  'auth/resource-mismatch': { steps: [{ args: ['auth', SERVER] }] },
  'auth/pre-registration': {
    steps: AUTHORISE_THEN_USE,
    entry: (context) => ({ oauth: { clientId: context.client_id, clientSecret: context.client_secret } }),
  },
  'auth/client-credentials-basic': {
    steps: USE_DIRECTLY,
    entry: (context) => ({
      oauth: { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret },
    }),
  },
  'auth/client-credentials-jwt': {
    steps: USE_DIRECTLY,
    entry: (context, dir) => {
      const privateKeyFile = path.join(dir, 'client-key.pem');
      fs.writeFileSync(privateKeyFile, context.private_key_pem, { mode: 0o600 });
      return {
        oauth: {
          grant: 'client_credentials',
          clientId: context.client_id,
          privateKeyFile,
          signingAlgorithm: context.signing_algorithm,
        },
      };
    },
  },
};

/** The CLI's own entry, as users run it (`package.json` `bin`). */
function cliEntry() {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const entry = path.join(REPO_ROOT, manifest.bin['mcp-chat']);
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  return entry;
}

function usage(message) {
  process.stderr.write(`conformance-client: ${message}\n`);
  process.stderr.write(
    `usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(SCENARIOS).join('|')}> ${process.argv[1]} <url>\n`,
  );
  process.exit(2);
}

/** A config, state and log directory of its own, so a run neither reads nor writes the user's. */
function writeConfig(dir, url, entry) {
  const config = { mcpServers: { [SERVER]: { type: 'http', url, timeout: CALL_TIMEOUT_S, ...entry } } };
  const file = path.join(dir, 'mcp_config.json');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** `BROWSER` for the CLI: an executable (openers take no arguments) that runs the stand-in browser on this Node. */
function writeBrowser(dir) {
  const file = path.join(dir, 'browser.sh');
  const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`;
  const follower = path.join(REPO_ROOT, 'scripts/oauth-browser.mjs');
  fs.writeFileSync(file, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(follower)} "$1"\n`, { mode: 0o755 });
  return file;
}

function runCli(args, dir) {
  const env = {
    PATH: process.env.PATH ?? '',
    BROWSER: writeBrowser(dir),
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_STATE_HOME: path.join(dir, 'state'),
    MCP_CHAT_LOG_FILE: path.join(dir, 'mcp-chat.log'),
    MCP_CHAT_LOG_LEVEL: 'debug',
  };
  // Its cwd is the empty directory too, so no ./mcp_config.json or ./.env is picked up.
  const child = spawn(process.execPath, [cliEntry(), ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // The harness kills this script at its --timeout: the CLI goes with it, not left behind.
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => child.kill(signal));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** On failure, the CLI's log is what says why: the harness keeps this script's stderr with the results. */
function reportLog(dir) {
  const log = path.join(dir, 'mcp-chat.log');
  if (!fs.existsSync(log)) return;
  const lines = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
  process.stderr.write(`--- last lines of mcp-chat's log ---\n${lines.slice(-40).join('\n')}\n`);
}

async function main() {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (process.argv.length < 3 || !URL.canParse(url)) usage('the last argument must be the server URL');
  if (scenario === undefined || !Object.hasOwn(SCENARIOS, scenario))
    usage(`unknown scenario ${JSON.stringify(scenario ?? '')} (MCP_CONFORMANCE_SCENARIO)`);
  const { args, steps = [{ args }], entry = {} } = SCENARIOS[scenario];
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-chat-conformance-')));
  try {
    const config = writeConfig(dir, url, typeof entry === 'function' ? entry(context, dir) : entry);
    let code = 0;
    for (const step of steps) {
      code = await runCli([...step.args, '--config', config], dir);
      if (code !== 0 && !step.mayFail) break;
    }
    if (code !== 0) reportLog(dir);
    process.exitCode = code;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
