/**
 * The Ajv that checks servers' schemas, as the SDK's default one but with a linear-time engine for
 * `pattern` and `patternProperties` (RE2, in pure JavaScript): a server's pattern cannot freeze the
 * client. A pattern RE2 cannot take (lookaround, backreferences) fails that tool's checks, saying so.
 */
import { Ajv, type Options } from 'ajv';
import formats from 'ajv-formats';
import { RE2JS } from 're2js';
import { errorMessage } from '../shared/errors.js';

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

/**
 * Security: JavaScript's own engine backtracks, so `^(a+)+$` against a few dozen `a`s and a `!`
 * runs for minutes on the main thread (Esc and Ctrl+C unread). RE2 matches in time linear in the
 * input. `u` (Unicode) is ignored: RE2 always matches by code point.
 */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      throw new Error(`pattern "${pattern}" cannot be matched in linear time (${errorMessage(error)})`);
    }
    return { test: (text: string): boolean => compiled.test(text) };
  },
  // Ajv names the engine in the code it generates; only standalone code would use the name.
  { code: 'linearRegExp' },
);

/** The options the SDK's default Ajv has (its ajv-provider.js), plus the linear-time engine. */
export function linearPatternAjv(): Ajv {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: linearRegExp },
  });
  // A CommonJS module: its plugin is `default`, for NodeNext's types and at run time alike.
  formats.default(ajv);
  return ajv;
}
