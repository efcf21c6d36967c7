/**
 * One typed line as the value of a form field a server asked for: checked against the field's
 * type, format, range and choices, with the reason when it does not fit. An empty line keeps the
 * field's default, or leaves an optional field out. Pure, so the prompt can say what is wrong
 * while the user types.
 */
import type { FormField, FormValue } from '../vocabulary/server-requests.js';

export type FieldInput = { value: FormValue } | { skip: true } | { problem: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkFormat(format: string | undefined, text: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'an email address, like ana@example.com';
    case 'uri':
      return URL.canParse(text) ? undefined : 'a URL, like https://example.com';
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? undefined : 'a date, like 2026-11-24';
    case 'date-time':
      return Number.isNaN(Date.parse(text)) ? 'a date and time, like 2026-11-24T10:30:00Z' : undefined;
    default:
      return undefined;
  }
}

/** The option a word picks: its number in the list, its value or its label (any case). */
function pick(field: Extract<FormField, { kind: 'choice' | 'choices' }>, word: string): string | undefined {
  const wanted = word.trim().toLowerCase();
  const index = Number(wanted);
  if (Number.isInteger(index) && index >= 1 && index <= field.options.length) return field.options[index - 1]?.value;
  return field.options.find((option) => option.value.toLowerCase() === wanted || option.label.toLowerCase() === wanted)
    ?.value;
}

function parseText(field: FormField, text: string): FieldInput {
  switch (field.kind) {
    case 'string': {
      if (field.minLength !== undefined && text.length < field.minLength)
        return { problem: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && text.length > field.maxLength)
        return { problem: `at most ${field.maxLength} characters` };
      const problem = checkFormat(field.format, text);
      return problem ? { problem } : { value: text };
    }
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value)) return { problem: `a ${field.kind}` };
      if (field.kind === 'integer' && !Number.isInteger(value)) return { problem: 'a whole number' };
      if (field.minimum !== undefined && value < field.minimum) return { problem: `at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum) return { problem: `at most ${field.maximum}` };
      return { value };
    }
    case 'boolean': {
      const word = text.trim().toLowerCase();
      if (['y', 'yes', 'true'].includes(word)) return { value: true };
      if (['n', 'no', 'false'].includes(word)) return { value: false };
      return { problem: 'y or n' };
    }
    case 'choice': {
      const value = pick(field, text);
      return value === undefined ? { problem: 'one of the numbered choices' } : { value };
    }
    case 'choices': {
      const words = text.split(',').filter((word) => word.trim() !== '');
      const values = words.map((word) => pick(field, word));
      if (values.some((value) => value === undefined)) return { problem: 'numbered choices, separated by commas' };
      const chosen = [...new Set(values as string[])];
      if (field.minItems !== undefined && chosen.length < field.minItems)
        return { problem: `at least ${field.minItems} choices` };
      if (field.maxItems !== undefined && chosen.length > field.maxItems)
        return { problem: `at most ${field.maxItems} choices` };
      return { value: chosen };
    }
  }
}

export function parseFieldInput(field: FormField, text: string): FieldInput {
  if (text.trim() === '') {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { problem: 'required' } : { skip: true };
  }
  return parseText(field, text.trim());
}

/** What the field takes, in a few words, with its choices numbered. */
export function fieldHint(field: FormField): string {
  const what = (() => {
    switch (field.kind) {
      case 'string':
        return field.format ?? 'text';
      case 'number':
      case 'integer': {
        const range = [field.minimum, field.maximum].map((bound) => (bound === undefined ? '' : String(bound)));
        return range.join('') === '' ? field.kind : `${field.kind} ${range[0] || '…'}–${range[1] || '…'}`;
      }
      case 'boolean':
        return 'y/n';
      case 'choice':
        return `one of: ${field.options.map((option, index) => `${index + 1}) ${option.label}`).join('  ')}`;
      case 'choices':
        return `any of (commas): ${field.options.map((option, index) => `${index + 1}) ${option.label}`).join('  ')}`;
    }
  })();
  const fallback = field.default === undefined ? '' : ` · Enter keeps ${JSON.stringify(field.default)}`;
  const optional = field.required || field.default !== undefined ? '' : ' · optional, Enter skips';
  return `${field.title ?? field.name}${field.description ? ` — ${field.description}` : ''} (${what}${fallback}${optional})`;
}
