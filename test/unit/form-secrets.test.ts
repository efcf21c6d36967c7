import { describe, expect, it } from 'vitest';
import { isSecretField, secretAnswers } from '../../src/mcp/form-secrets.js';
import type { FormField } from '../../src/vocabulary/server-requests.js';

describe('which form fields ask for a secret', () => {
  it.each([
    ['password', undefined],
    ['secret', 'Password'],
    ['apiKey', undefined],
    ['APIKey', undefined],
    ['api_key', undefined],
    ['key', 'API key'],
    ['access_token', undefined],
    ['passphrase', undefined],
    ['otpCode', undefined],
    ['pin', undefined],
    ['client-credentials', undefined],
  ])('%s (titled %s) is a secret', (name, title) => expect(isSecretField(name, title)).toBe(true));

  it.each([['tokens_count'], ['maxTokens'], ['pinned'], ['spinner'], ['keyboard'], ['passenger'], ['username']])(
    '%s is not',
    (name) => expect(isSecretField(name, undefined)).toBe(false),
  );

  it("an accepted form's secret values, as text; nothing for a declined one", () => {
    const fields: FormField[] = [
      { name: 'user', required: true, kind: 'string' },
      { name: 'password', required: true, kind: 'string', secret: true },
      { name: 'pin', required: true, kind: 'integer', secret: true },
    ];
    const content = { user: 'ana', password: 'correct-horse', pin: 12345678 };
    expect(secretAnswers(fields, { action: 'accept', content })).toEqual(['correct-horse', '12345678']);
    expect(secretAnswers(fields, { action: 'decline' })).toEqual([]);
  });
});
