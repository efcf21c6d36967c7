/**
 * `--output-schema`: the schema file's problems are usage errors that say what is wrong; an
 * answer is checked as JSON against the schema, with Ajv's account of what does not conform.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAnswerSchema } from '../../src/cli/answer-schema.js';
import { ExitCode, UsageError } from '../../src/shared/errors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answer-schema-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string): string => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, content);
  return at;
};

async function usageErrorOf(run: () => Promise<unknown>): Promise<UsageError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('the schema file', () => {
  it('missing, a directory, not JSON, not an object, or not compilable: exit 2, saying which', async () => {
    const cases: [string, string][] = [
      [path.join(dir, 'absent.json'), 'absent.json: no such file'],
      [dir, 'it is a directory'],
      [file('broken.json', '{"type":'), 'broken.json is not JSON'],
      [file('array.json', '[]'), 'does not hold a JSON Schema object'],
      [file('bad-type.json', '{"type": "integr"}'), 'bad-type.json is not a usable JSON Schema'],
    ];
    for (const [at, message] of cases) {
      const error = await usageErrorOf(() => loadAnswerSchema(at));
      expect(error.exitCode).toBe(ExitCode.usage);
      expect(error.message).toContain(message);
    }
  });
});

describe('an answer', async () => {
  const schema = await loadAnswerSchema(
    file(
      'city.json',
      JSON.stringify({
        type: 'object',
        properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
        required: ['city', 'population'],
      }),
    ),
  );

  it('conforms: its value', () => {
    expect(schema.check('{"city": "Lisbon", "population": 545000}')).toEqual({
      ok: true,
      value: { city: 'Lisbon', population: 545000 },
    });
  });

  it('does not: every error, by path', () => {
    const check = schema.check('{"population": -3}');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toContain("must have required property 'city'");
    expect(check.errors).toContain('population must be >= 0');
  });

  it('is not JSON: says so', () => {
    expect(schema.check('Lisbon, about half a million')).toMatchObject({
      ok: false,
      errors: expect.stringContaining('not JSON'),
    });
  });
});
