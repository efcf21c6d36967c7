/**
 * What one server's pin file holds: the server's name, when it was pinned, and each tool by hash
 * and as it was. The store writes one such file a server; older pins, all servers in one file, are
 * read with the same entry shape when they are carried over.
 */
import * as z from 'zod';

const record = z.record(z.string(), z.unknown());
const toolSchema = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: record,
  annotations: record.optional(),
  instructions: z.string().optional(),
});
export const pinnedServerSchema = z.object({
  server: z.string(),
  pinnedAt: z.string(),
  // A list, not a record by name: tool names are the server's words, `__proto__` among them.
  tools: z.array(z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), tool: toolSchema })),
});
export const pinFileSchema = pinnedServerSchema.extend({ version: z.literal(1) });
export type PinnedServer = z.infer<typeof pinnedServerSchema>;

/** A pin file's name: the server's key (a sha256), so nothing of what the server is shows. */
export const PIN_FILE_NAME = /^[0-9a-f]{64}\.json$/;

export function pinFileText(entry: PinnedServer): string {
  return `${JSON.stringify({ version: 1, ...entry }, null, 2)}\n`;
}
