/**
 * The input history across runs, on a real temporary state directory: what is kept, in which
 * order, how far it is bounded, and that secrets never reach the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputHistory, MAX_INPUT_HISTORY } from '../../src/state/input-history.js';

let root: string;
let file: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-input-history-'));
  file = path.join(root, 'state', 'input-history');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('input history', () => {
  it('keeps lines across runs, oldest first, each once at its latest place', () => {
    const first = new InputHistory(file);
    expect(first.load()).toEqual([]);
    first.add('one');
    first.add('two');
    first.add('one');
    expect(new InputHistory(file).load()).toEqual(['two', 'one']);
  });

  it('keeps a pasted multi-line input whole, and leaves blank lines out', () => {
    const history = new InputHistory(file);
    history.add('line one\nline two');
    expect(history.add('   ')).toBe(false);
    expect(new InputHistory(file).load()).toEqual(['line one\nline two']);
  });

  it('is bounded: the file is compacted once it holds twice the bound, and loads the last lines', () => {
    const history = new InputHistory(file);
    history.load();
    for (let n = 0; n < 2 * MAX_INPUT_HISTORY + 1; n++) history.add(`line ${n}`);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBe(MAX_INPUT_HISTORY);
    const loaded = new InputHistory(file).load();
    expect(loaded).toHaveLength(MAX_INPUT_HISTORY);
    expect(loaded.at(-1)).toBe(`line ${2 * MAX_INPUT_HISTORY}`);
  });

  it('the file is private (0600 in a 0700 directory)', () => {
    new InputHistory(file).add('hello');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('a damaged line is skipped, the rest is kept', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '"good"\n{not json\n42\n"also good"\n"cut off');
    expect(new InputHistory(file).load()).toEqual(['good', 'also good']);
  });

  it('a history that cannot be written is not an error: the line is just not kept', () => {
    fs.mkdirSync(file, { recursive: true });
    const history = new InputHistory(file);
    expect(history.load()).toEqual([]);
    expect(history.add('hello')).toBe(false);
  });

  it('a huge paste is not kept', () => {
    expect(new InputHistory(file).add('x '.repeat(10_000))).toBe(false);
  });
});

describe('secrets in input history', () => {
  it('a line holding a token, a password or an Authorization value never reaches the file', () => {
    const history = new InputHistory(file);
    const secrets = [
      'ghp_0123456789abcdefABCDEF0123456789abcd',
      'use sk-proj-AbCdEf0123456789xyzXYZ please',
      'Authorization: Bearer abc123def456',
      'password=hunter22',
      'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
    ];
    for (const secret of secrets) expect(history.add(secret)).toBe(false);
    history.add('an ordinary question');
    const text = fs.readFileSync(file, 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('ghp_');
    expect(new InputHistory(file).load()).toEqual(['an ordinary question']);
  });

  /** Each credential shape, as it would be pasted at the prompt, with the part that must not be kept. */
  const credentialShapes: [string, string, string][] = [
    [
      'Authorization: Bearer header',
      `curl -H 'Authorization: Bearer abc.def.ghi' https://api.example.com`,
      'abc.def.ghi',
    ],
    ['Authorization: Basic header', 'curl -H "Authorization: Basic dXNlcjpwYXNz" https://x.example', 'dXNlcjpwYXNz'],
    ['a bare Basic credential', 'it fails with Basic dXNlcjpwYXNz every time', 'dXNlcjpwYXNz'],
    ['-p attached (mysql)', 'mysql -u root -pS3cretPass app', 'S3cretPass'],
    ['-p and a value (sshpass)', 'sshpass -p hunter2 ssh deploy@host', 'hunter2'],
    ['--password value', 'pg_dump --password hunter22 app', 'hunter22'],
    ['--token=value', 'deploy --token=abc123def', 'abc123def'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE is the key', 'AKIAIOSFODNN7EXAMPLE'],
    ['AWS temporary access key id', 'ASIAIOSFODNN7EXAMPLE', 'ASIAIOSFODNN7EXAMPLE'],
    ['AWS secret access key', 'the secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG'],
    [
      'GCP service-account JSON',
      '{"type": "service_account", "project_id": "demo-123", "private_key_id": "1a2b3c4d5e"}',
      '1a2b3c4d5e',
    ],
    ['Google API key', 'key=AIzaSyA-0123456789abcdefghijklmnopqrstu', 'AIzaSyA-0123456789'],
    ['Slack bot token', 'xoxb-1234567890-abcdefghij', 'xoxb-1234567890'],
    ['Slack user token', 'use xoxp-1234567890-abcdefghij', 'xoxp-1234567890'],
    ['Slack webhook', 'post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXX', 'T00000000'],
    ['Stripe secret key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_live_4eC39'],
    ['Stripe restricted key', 'rk_live_4eC39HqLyjWDarjtT1zdp7dc', 'rk_live_4eC39'],
    ['GitHub token', 'ghp_0123456789abcdefABCDEF0123456789abcd', 'ghp_0123456789'],
    ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghij', 'github_pat_11'],
    [
      'PEM private key',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
      'MIIEpAIBAAKCAQEA',
    ],
    [
      'PGP private key',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0\n-----END PGP PRIVATE KEY BLOCK-----',
      'lQOYBF0',
    ],
  ];
  it.each(credentialShapes)('credential shape: %s — a line with it is not saved', (_shape, line, secret) => {
    const history = new InputHistory(file);
    expect(history.add(line)).toBe(false);
    history.add('an ordinary question');
    expect(fs.readFileSync(file, 'utf8')).not.toContain(secret);
    expect(new InputHistory(file).load()).toEqual(['an ordinary question']);
  });

  const ordinaryLines = [
    'What is 2+2?',
    'use basic auth please',
    'Basic tips for bread',
    'mkdir -p build/out',
    'ssh -p 2222 host',
    'docker run -p 8080:80 nginx',
    'git add -p src/a.ts',
    'find . -name "*.ts" -print',
    'What is the -p flag of mkdir?',
    'explain AWS access keys and how to rotate them',
    'what is a GCP service account?',
    'read src/components/very/long/path/Button.tsx',
  ];
  it('ordinary lines, some near those shapes, are still saved', () => {
    const history = new InputHistory(file);
    for (const line of ordinaryLines) expect(history.add(line), line).toBe(true);
    expect(new InputHistory(file).load()).toEqual(ordinaryLines);
  });

  it('a secret already in the file (written by an older version) is not recalled', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify('token=abcdef123')}\n${JSON.stringify('fine')}\n`);
    expect(new InputHistory(file).load()).toEqual(['fine']);
  });
});
