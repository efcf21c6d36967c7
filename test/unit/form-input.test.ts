/** A typed line as a form field's value: its type, format, range and choices, defaults and optional fields. */
import { describe, expect, it } from 'vitest';
import type { FormField } from '../../src/vocabulary/server-requests.js';
import { fieldHint, parseFieldInput } from '../../src/ui/form-input.js';

const email: FormField = { name: 'email', kind: 'string', format: 'email', required: true };
const age: FormField = { name: 'age', kind: 'integer', minimum: 1, maximum: 120, required: false, default: 30 };
const pet: FormField = {
  name: 'pet',
  kind: 'choice',
  required: true,
  options: [
    { value: 'pet-1', label: 'Cats' },
    { value: 'pet-2', label: 'Dogs' },
  ],
};
const tools: FormField = {
  name: 'tools',
  kind: 'choices',
  required: false,
  minItems: 1,
  maxItems: 2,
  options: ['Guitar', 'Piano', 'Drums'].map((value) => ({ value, label: value })),
};

describe('parseFieldInput', () => {
  it('checks formats, lengths and ranges, saying what the field needs', () => {
    expect(parseFieldInput(email, 'ana@example.com')).toEqual({ value: 'ana@example.com' });
    expect(parseFieldInput(email, 'ana@')).toEqual({ problem: 'an email address, like ana@example.com' });
    expect(parseFieldInput({ name: 'site', kind: 'string', format: 'uri', required: true }, 'not a url')).toMatchObject(
      {
        problem: 'a URL, like https://example.com',
      },
    );
    expect(parseFieldInput({ name: 'day', kind: 'string', format: 'date', required: true }, '2026-11-24')).toEqual({
      value: '2026-11-24',
    });
    expect(parseFieldInput({ name: 'n', kind: 'string', maxLength: 3, required: true }, 'four')).toEqual({
      problem: 'at most 3 characters',
    });
    expect(parseFieldInput(age, '7')).toEqual({ value: 7 });
    expect(parseFieldInput(age, '7.5')).toEqual({ problem: 'a whole number' });
    expect(parseFieldInput(age, '150')).toEqual({ problem: 'at most 120' });
    expect(parseFieldInput(age, 'old')).toEqual({ problem: 'a integer' });
  });

  it('an empty line keeps the default, skips an optional field, and is refused for a required one', () => {
    expect(parseFieldInput(age, '  ')).toEqual({ value: 30 });
    expect(parseFieldInput(tools, '')).toEqual({ skip: true });
    expect(parseFieldInput(email, '')).toEqual({ problem: 'required' });
  });

  it('a choice by its number, value or label; several separated by commas, within their bounds', () => {
    expect(parseFieldInput(pet, '2')).toEqual({ value: 'pet-2' });
    expect(parseFieldInput(pet, 'dogs')).toEqual({ value: 'pet-2' });
    expect(parseFieldInput(pet, 'pet-1')).toEqual({ value: 'pet-1' });
    expect(parseFieldInput(pet, '3')).toEqual({ problem: 'one of the numbered choices' });
    expect(parseFieldInput(tools, '1, piano')).toEqual({ value: ['Guitar', 'Piano'] });
    expect(parseFieldInput(tools, '1,2,3')).toEqual({ problem: 'at most 2 choices' });
    expect(parseFieldInput({ name: 'ok', kind: 'boolean', required: true }, 'yes')).toEqual({ value: true });
    expect(parseFieldInput({ name: 'ok', kind: 'boolean', required: true }, 'maybe')).toEqual({ problem: 'y or n' });
  });

  it('the hint names the field, what it takes, its choices and its default', () => {
    expect(fieldHint(pet)).toBe('pet (one of: 1) Cats  2) Dogs)');
    expect(fieldHint(age)).toBe('age (integer 1–120 · Enter keeps 30)');
    expect(fieldHint({ ...email, title: 'Email', description: 'Where we write' })).toBe(
      'Email — Where we write (email)',
    );
  });
});
