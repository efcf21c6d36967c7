/**
 * `${VAR}` and `${VAR:-default}` expansion. A variable that is unset or empty with no
 * default is reported, not replaced by an empty string: an empty token must never be
 * sent, so the caller disables the server instead.
 */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Env = Record<string, string | undefined>;

export interface Expansion {
  value: string;
  /** Names of variables that had no value and no default. */
  missing: string[];
}

export function expandVariables(text: string, env: Env): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { value, missing };
}

/** Expands every value of a string map, collecting what is missing with where it was used. */
export function expandMap(
  map: Record<string, string>,
  env: Env,
  where: string,
  missing: string[],
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(map).map(([key, text]) => [key, expandField(text, env, `${where}.${key}`, missing)]),
  );
}

export function expandField(text: string, env: Env, where: string, missing: string[]): string {
  const expansion = expandVariables(text, env);
  missing.push(...expansion.missing.map((name) => `${name} (used in ${where})`));
  return expansion.value;
}
