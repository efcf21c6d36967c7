/**
 * The short form of a tool, sent when it lets more tools fit the budget: the first sentence of
 * its description, parameter descriptions cut to their first sentence, links reduced to their
 * text, and schema text the model cannot use dropped (`$schema`, `examples`, nested `title`s,
 * `$defs` nothing refers to, keywords that only restate JSON Schema's defaults). Parameter
 * names, types, `enum`, `const`, `$ref` and `required` are never touched: the model must still
 * write a valid call.
 */
import { isRecord } from '../../shared/is-record.js';
import type { JsonSchemaObject, ToolSpec } from '../../vocabulary/types.js';

const MAX_DESCRIPTION = 200;
const MAX_PARAMETER_DESCRIPTION = 100;
const MAX_BARE_DESCRIPTION = 100;
/** Keys that only document a schema; `description` is shortened instead. */
const DOCUMENTATION_KEYS = new Set(['$schema', '$comment', 'examples', 'title', 'markdownDescription']);
const DEFINITION_KEYS = ['$defs', 'definitions'] as const;
/** Keys whose value is a map of names to schemas: the names are data, not schema keywords. */
const NAMED_SCHEMA_KEYS = new Set(['properties', ...DEFINITION_KEYS]);

/**
 * Keywords that say nothing a call depends on, dropped at every level: `additionalProperties: true`
 * and `required: []` are JSON Schema's defaults, and a bound at ±2^53-1 (zod's "any safe integer")
 * is no bound for a number a model writes.
 */
function isVacuous(key: string, value: unknown): boolean {
  if (key === 'additionalProperties') return value === true;
  if (key === 'required') return Array.isArray(value) && value.length === 0;
  if (key === 'maximum' || key === 'minimum') return Math.abs(value as number) === Number.MAX_SAFE_INTEGER;
  return false;
}

/** `anyOf` alternatives written twice (Notion's `string | string | object`) match nothing more the second time. */
function distinct(alternatives: unknown[]): unknown[] {
  const seen = new Set<string>();
  return alternatives.filter((alternative) => {
    const key = JSON.stringify(alternative);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** Markdown links to their text: the URL costs tokens and tells the model nothing it can act on. */
function withoutLinks(text: string): string {
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
}

/** The first sentence (or line), at most `limit` characters, cut at a word. */
export function firstSentence(text: string, limit: number): string {
  const lines = withoutLinks(text).trim().split('\n');
  let line = lines[0] ?? '';
  // A hard-wrapped sentence goes on in lower case on the next line; anything else is a new part.
  for (const next of lines.slice(1)) {
    if (/[.!?:]\s*$/.test(line) || !/^\s*\p{Ll}/u.test(next)) break;
    line += ` ${next.trim()}`;
  }
  const sentence = (line.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? line).replace(/\s+/g, ' ').trim();
  if (sentence.length <= limit) return sentence;
  const cut = sentence.slice(0, limit - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), limit / 2)).trimEnd()}…`;
}

/** `parameterChars`: the longest parameter description kept (0: none). */
function compactSchema(schema: unknown, parameterChars: number): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compactSchema(item, parameterChars));
  if (!isRecord(schema)) return schema;
  const compacted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DOCUMENTATION_KEYS.has(key) && (key !== 'title' || typeof value === 'string')) continue;
    if (isVacuous(key, value)) continue;
    // What the server does with an argument left out; a call is as valid without knowing it.
    if (parameterChars === 0 && key === 'default') continue;
    if (key === 'description' && typeof value === 'string') {
      const short = parameterChars > 0 ? firstSentence(value, parameterChars) : '';
      if (short) compacted[key] = short;
    } else if (NAMED_SCHEMA_KEYS.has(key) && isRecord(value)) {
      // Property names are data, not schema keywords: a parameter called `title` stays.
      compacted[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, compactSchema(sub, parameterChars)]),
      );
    } else if (key === 'anyOf' && Array.isArray(value)) {
      compacted[key] = distinct(compactSchema(value, parameterChars) as unknown[]);
    } else {
      compacted[key] = compactSchema(value, parameterChars);
    }
  }
  return compacted;
}

/** Names of the `$defs` (or `definitions`) reached from the schema's own body, following refs through defs. */
function referencedDefinitions(schema: Record<string, unknown>, definitions: Record<string, unknown>): Set<string> {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.match(/^#\/(?:\$defs|definitions)\/(.+)$/)?.[1];
        if (name !== undefined && !reached.has(name)) {
          reached.add(name);
          visit(definitions[name]);
        }
      } else if (!(DEFINITION_KEYS as readonly string[]).includes(key)) {
        visit(value);
      }
    }
  };
  visit(schema);
  return reached;
}

/** Drops definitions nothing refers to: some servers send one shared set of `$defs` with every tool. */
export function withoutUnusedDefinitions(schema: JsonSchemaObject): JsonSchemaObject {
  const pruned: JsonSchemaObject = { ...schema };
  for (const key of DEFINITION_KEYS) {
    const definitions = schema[key];
    if (!isRecord(definitions)) continue;
    const used = referencedDefinitions(schema, definitions);
    const kept = Object.entries(definitions).filter(([name]) => used.has(name));
    if (kept.length === 0) delete pruned[key];
    else pruned[key] = Object.fromEntries(kept);
  }
  return pruned;
}

/**
 * How far a tool is shortened: `short` keeps the first sentence of each parameter description,
 * `bare` keeps none, nor `default`s (and a shorter description), for tools further down a
 * request's ranking.
 */
export type CompactLevel = 'short' | 'bare';

const LEVELS: Record<CompactLevel, { description: number; parameter: number }> = {
  short: { description: MAX_DESCRIPTION, parameter: MAX_PARAMETER_DESCRIPTION },
  bare: { description: MAX_BARE_DESCRIPTION, parameter: 0 },
};

export function compactTool(tool: ToolSpec, level: CompactLevel = 'short'): ToolSpec {
  const limits = LEVELS[level];
  return {
    ...tool,
    description: firstSentence(tool.description, limits.description),
    inputSchema: compactSchema(withoutUnusedDefinitions(tool.inputSchema), limits.parameter) as JsonSchemaObject,
  };
}
