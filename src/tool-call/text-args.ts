/**
 * Types the argument values that template formats carry as plain text (GLM's
 * `<arg_value>`, Qwen3-Coder's and MiniMax's `<parameter>`, per-argument XML children):
 * `3` for an integer parameter is the number 3, inside nested elements too. Policy: a value is read as JSON only when
 * the tool's schema gives that parameter a type other than string and the JSON is of that
 * type; anything else, an unknown parameter included, stays the text the model wrote.
 */
import { isRecord } from '../shared/is-record.js';
import { parseJsonLoose } from './json-repair.js';
import type { ToolSpec } from '../vocabulary/types.js';

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

const JSON_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** The JSON types a property schema allows: `type`, a list of types, or the branches of anyOf/oneOf. */
function typesOf(schema: unknown): Set<JsonType> {
  const types = new Set<JsonType>();
  if (!isRecord(schema)) return types;
  const declared = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const type of declared) if (typeof type === 'string' && JSON_TYPES.has(type)) types.add(type as JsonType);
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) for (const type of typesOf(branch)) types.add(type);
  }
  return types;
}

function typeOfValue(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'string' ? 'string' : 'object';
}

function fits(value: unknown, types: Set<JsonType>): boolean {
  const type = typeOfValue(value);
  if (type === 'string') return false;
  return types.has(type) || (type === 'integer' && types.has('number'));
}

/** One text value, typed by its property schema when the schema asks for something other than text. */
export function typedValue(text: string, schema: unknown): unknown {
  const types = typesOf(schema);
  if (types.size === 0 || types.has('string')) return text;
  const parsed = parseJsonLoose(text.trim());
  return parsed.ok && fits(parsed.value, types) ? parsed.value : text;
}

/**
 * A value written as text, leaves of nested elements included (MiniMax M3), typed by its schema:
 * an array's items by `items`, an object's members by `properties`.
 */
function typedDeep(value: unknown, schema: unknown): unknown {
  if (typeof value === 'string') return typedValue(value, schema);
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) return value.map((item) => typedDeep(item, schema.items));
  const properties = schema.properties;
  if (!isRecord(value) || !isRecord(properties)) return value;
  // Rebuilt with fromEntries so that a `__proto__` member stays plain data.
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      Object.hasOwn(properties, key) ? typedDeep(member, properties[key]) : member,
    ]),
  );
}

/** The arguments with each text-valued key in `keys` typed by `spec`'s input schema. */
export function typeTextArguments(
  args: Record<string, unknown>,
  keys: readonly string[],
  spec: ToolSpec,
): Record<string, unknown> {
  const properties: Record<string, unknown> = spec.inputSchema.properties ?? {};
  const textKeys = new Set(keys);
  // Rebuilt with fromEntries so that a `__proto__` argument stays plain data.
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) =>
      textKeys.has(key) && Object.hasOwn(properties, key) ? [key, typedDeep(value, properties[key])] : [key, value],
    ),
  );
}
