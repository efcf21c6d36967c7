/**
 * Ajv with its formats, as the SDK's Ajv provider builds them (scripts/on-first-use.mjs): one file,
 * so the two share one Ajv (ajv-formats writes its checks with Ajv's own code generator).
 */
export { default as Ajv } from 'ajv';
export { default as addFormats } from 'ajv-formats';
