/**
 * Pins written before each server had a file of its own were kept in one `tool-pins.json` beside
 * the folder. The first store that meets that file carries every server over to its own file
 * (one already there is newer and stays) and then removes it, so no pin is lost on upgrade and the
 * file is read once, not at every start.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { PARSED_ONCE } from '../config/schema.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { errorMessage } from '../shared/errors.js';
import { pinnedServerSchema, pinFileText } from './tool-pin-file.js';

export const LEGACY_TOOL_PINS_FILE_NAME = 'tool-pins.json';

const legacySchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string().regex(/^[0-9a-f]{64}$/), pinnedServerSchema),
});

/** Carries the one-file pins beside `dir` over into it; says why not when the file cannot be used. */
export function migrateLegacyPins(dir: string): string | undefined {
  const legacy = path.join(path.dirname(dir), LEGACY_TOOL_PINS_FILE_NAME);
  if (!fs.existsSync(legacy)) return undefined;
  const unused = (why: string): string =>
    `${legacy} ${why}: its pins are not used, and servers are pinned afresh (remove it once you have read it)`;
  let parsed: ReturnType<typeof legacySchema.safeParse>;
  try {
    parsed = legacySchema.safeParse(JSON.parse(fs.readFileSync(legacy, 'utf8')), PARSED_ONCE);
  } catch (error) {
    return unused(`cannot be read as JSON (${errorMessage(error)})`);
  }
  if (!parsed.success) return unused('is not a tool pin file mcp-chat understands');
  for (const [key, entry] of Object.entries(parsed.data.servers)) {
    const file = path.join(dir, `${key}.json`);
    if (!fs.existsSync(file)) writeFileAtomic(file, pinFileText(entry));
  }
  fs.rmSync(legacy);
  return undefined;
}
