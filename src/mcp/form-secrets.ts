/**
 * Which fields of a server's form ask for a secret, by their name or title: the protocol's string
 * formats have no `password` (the SDK refuses any format but email, uri, date and date-time), so
 * the words are all there is to go on. Such a field is masked while typed and its value is never
 * shown or kept (src/ui/), and the value joins the server's secrets, hidden wherever the server
 * echoes it (server-secrets.ts).
 */
import type { FormAnswer, FormField } from '../vocabulary/server-requests.js';

/** Whole words only: `token` and `pin` are secrets, `tokens_count` and `pinned` are not. */
const SECRET_WORD = /^(?:pass(?:words?|wd|phrase|code)|secrets?|token|pin|otp|credentials?|apikey)$/;

/** The words of a name: `apiKey`, `APIKey`, `api_key`, `API key` and `api-key` all give `api`, `key`. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

function namesSecret(text: string): boolean {
  const words = wordsOf(text);
  return words.some((word, index) => SECRET_WORD.test(word) || (word === 'api' && words[index + 1] === 'key'));
}

export function isSecretField(name: string, title: string | undefined): boolean {
  return namesSecret(name) || (title !== undefined && namesSecret(title));
}

/** The values an accepted form gives its secret fields, as the server may echo them. */
export function secretAnswers(fields: readonly FormField[], answer: FormAnswer): string[] {
  if (answer.action !== 'accept') return [];
  return fields
    .filter((field) => field.secret === true)
    .map((field) => answer.content[field.name])
    .flatMap((value) => (typeof value === 'string' || typeof value === 'number' ? [String(value)] : []));
}
