/** Which typed lines count as secrets (and are never written to the input history), and which do not. */
import { describe, expect, it } from 'vitest';
import { looksSecret } from '../../src/state/secret-lines.js';

describe('secrets in input history: lines that look like secrets', () => {
  const secrets = [
    'use ghp_0123456789abcdefABCDEF0123456789abcd to read the repo',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    'my key is sk-proj-AbCdEf0123456789xyzXYZ',
    'sk-ant-api03-abcdefghijklmnop',
    'glpat-abcdefghij0123456789',
    'xoxb-1234567890-abcdefghij',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyA-0123456789abcdefghijklmnopqrstu',
    'hf_abcdefghijklmnopqrstuvwxyz0123456789',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'Authorization: token abc',
    'curl -H "authorization=xyz" https://api.example.com',
    'Bearer abc.def.ghi-123',
    'use Basic dXNlcjpwYXNzd29yZA== for it',
    'password=hunter22',
    'PASSWORD: "correct horse"',
    'GITHUB_TOKEN=abcdef',
    'export OPENAI_API_KEY=whatever',
    'client_secret: s3cr3tvalue',
    '--token abcdefgh',
    'my password is hunter22',
    'connect to postgres://admin:hunter22@db.example.com/app',
    'the key is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'paste: Qm9vbSBzaGFrYWxha2EgMTIzNDU2Nzg5MGFiY2RlZg==',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
  ];
  it.each(secrets)('%j is a secret', (line) => expect(looksSecret(line)).toBe(true));

  const ordinary = [
    'What is 2+2?',
    'How do bearer tokens work in OAuth?',
    'explain password hashing with bcrypt',
    'what is a token in NLP',
    'Summarise README.md',
    'read /home/someone/projects/mcp-chat/src/session/session-store.ts',
    'internationalization and localization are long words',
    'checkout feature/add-session-persistence-and-input-history',
    'convert 5 inches to cm',
    'the uuid 123e4567-e89b-12d3-a456-426614174000 is fine',
    '/resume latest',
    'tell me about sk-learn and scikit',
  ];
  it.each(ordinary)('%j is an ordinary line', (line) => expect(looksSecret(line)).toBe(false));
});
