/**
 * A parameter's JSON Schema written as a model reads a type: `{entityName: string, observations:
 * string[]}[]`, `"ascending"|"descending"`. The text tool lists give one line a parameter; one
 * that holds an object, or a list of them, needs the fields inside named too, or a model cannot
 * write a call the server accepts.
 */
import { isRecord } from '../shared/is-record.js';
import type { JsonSchemaObject } from '../vocabulary/types.js';

/** Levels of nesting written out; deeper objects are just `object` (what Notion's block trees would cost). */
const MAX_DEPTH = 3;
/** `$ref`s followed on one path: more than any real schema chains. */
const MAX_HOPS = 8;

/** `$ref`s into the root's `$defs` or `definitions`, the forms servers send. */
function resolveRef(ref: string, root: JsonSchemaObject): unknown {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const definitions = root[match[1] as string];
  return isRecord(definitions) ? definitions[match[2] as string] : undefined;
}

/** Unions and lists of them read ambiguously as `a|b[]`: bracketed. */
const grouped = (notation: string): string => (notation.includes('|') ? `(${notation})` : notation);

function objectNotation(schema: Record<string, unknown>, root: JsonSchemaObject, depth: number, hops: number): string {
  const properties = schema.properties;
  if (!isRecord(properties) || Object.keys(properties).length === 0 || depth >= MAX_DEPTH) return 'object';
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(
    ([name, sub]) => `${name}${required.has(name) ? '' : '?'}: ${typeNotation(sub, root, depth + 1, hops)}`,
  );
  return `{${fields.join(', ')}}`;
}

/**
 * `depth`: how many objects `schema` is inside; `hops`: how many `$ref`s led here, which ends a
 * definition that only refers on to itself.
 */
export function typeNotation(schema: unknown, root: JsonSchemaObject, depth = 0, hops = 0): string {
  if (!isRecord(schema)) return 'any';
  if (typeof schema.$ref === 'string') {
    const target = hops < MAX_HOPS ? resolveRef(schema.$ref, root) : undefined;
    return target === undefined ? 'object' : typeNotation(target, root, depth, hops + 1);
  }
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join('|');
  if ('const' in schema) return JSON.stringify(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    const notations = alternatives.map((alternative) => typeNotation(alternative, root, depth, hops));
    return [...new Set(notations)].join('|');
  }
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  return types
    .map((type) => {
      if (type === 'array') return `${grouped(typeNotation(schema.items, root, depth, hops))}[]`;
      if (type === 'object') return objectNotation(schema, root, depth, hops);
      return String(type);
    })
    .join('|');
}
