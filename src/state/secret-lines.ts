/**
 * Whether a typed line looks like it holds a secret. Security: such a line is never written to
 * the input history on disk, where it would outlive the chat it was typed in. Errs towards
 * leaving a line out: a line missing from ↑ costs a retype, a kept token costs the token.
 */

/** Token shapes issued by well-known services: recognisable whatever surrounds them. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{20,}/, // GitHub, fine-grained
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bsk-[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic (sk-ant-…, sk-proj-…)
  /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/, // Stripe
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{35}/, // Google API key
  /\bhf_[A-Za-z0-9]{30,}/, // Hugging Face
  /\bnpm_[A-Za-z0-9]{36}/, // npm
  /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/, // JWT
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/, // PEM and PGP private keys
  /"type"\s*:\s*"service_account"|"private_key(?:_id)?"\s*:/, // Google Cloud service-account JSON
  /\bhooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/, // Slack webhook
];

/**
 * An AWS secret access key: 40 base64 characters mixing digits, capitals and small letters. One
 * without `/` or `+` is a random run (below) already; one with them is split there by that test.
 */
const AWS_SECRET_KEY =
  /(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]*\d)(?=[A-Za-z0-9/+]*[A-Z])(?=[A-Za-z0-9/+]*[a-z])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/;

/**
 * A password given with `-p`: attached or after a space (`mysql -pS3cret`, `sshpass -p hunter2`),
 * when the value mixes letters with digits or symbols, so `-print`, `-p 2222` (a port), `-p
 * 8080:80` and `-p src/out` stay ordinary; after the commands that take one so, any value.
 */
const SHORT_PASSWORD_FLAG =
  /(?:^|\s)-p[\s=]*(?=[^\s-])(?=\S*[A-Za-z])(?=\S*[^A-Za-z\s/.:_-])\S{3,}|\b(?:mysql\w*|mariadb[\w-]*|sshpass|mongo\w*)\b.*\s-p[\s=]*[^\s-]\S+/;

/** `Basic` and base64 of `user:password`, which decodes to printable text with a colon in it. */
const BASIC_CREDENTIAL = /\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])/gi;

function hasBasicCredential(line: string): boolean {
  for (const [, encoded = ''] of line.matchAll(BASIC_CREDENTIAL)) {
    if (/^[\x20-\x7e]*:[\x20-\x7e]*$/.test(Buffer.from(encoded, 'base64').toString('latin1'))) return true;
  }
  return false;
}

/**
 * `Authorization: …`, or `Bearer …` / `Basic …` followed by something that is not a plain word
 * (a digit or a symbol in it), so "bearer tokens expire" stays an ordinary sentence.
 */
const HTTP_CREDENTIAL = /\bauthorization\s*[:=]|\b(?:bearer|basic)\s+(?=[\w.~+/=-]*[\d.~+/=])[\w.~+/=-]{8,}/i;

/** Names under which credentials are given. */
const CREDENTIAL =
  'pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?';
/** `password=…`, `GITHUB_TOKEN=…`, `api_key: "…"`, `--token …`, `my password is …`: a value given under such a name. */
const NAMED_CREDENTIAL = new RegExp(
  `\\b[\\w.-]*?(?:${CREDENTIAL})["']?\\s*[:=]\\s*["']?\\S{3,}|--?(?:${CREDENTIAL})[\\s=]+\\S{3,}|\\b(?:pass(?:word|wd)?|pwd)\\s+is\\s+\\S{3,}`,
  'i',
);

/** A URL with a password in it: `https://user:pass@host`. */
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;

/** Random-looking runs: 32+ hex digits (keys, hashes of secrets), 32+ base64 characters. */
const HEX_RUN = /\b[0-9a-f]{32,}\b/i;
const BASE64_RUN = /[A-Za-z0-9+_-]{32,}={0,2}/g;

/**
 * A long base64 run with digits, capitals and small letters is a key: random text has all three,
 * while long words, kebab-case names and paths (split at each `/`) lack one.
 */
function hasRandomRun(line: string): boolean {
  for (const [run] of line.matchAll(BASE64_RUN)) {
    if (/\d/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run)) return true;
  }
  return false;
}

export function looksSecret(line: string): boolean {
  return (
    TOKEN_SHAPES.some((shape) => shape.test(line)) ||
    HTTP_CREDENTIAL.test(line) ||
    NAMED_CREDENTIAL.test(line) ||
    SHORT_PASSWORD_FLAG.test(line) ||
    hasBasicCredential(line) ||
    AWS_SECRET_KEY.test(line) ||
    URL_PASSWORD.test(line) ||
    HEX_RUN.test(line) ||
    hasRandomRun(line)
  );
}
