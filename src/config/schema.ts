/**
 * The shape of `mcp_config.json`, as zod schemas. Server entries follow Claude
 * Desktop's `mcpServers` shape plus our own fields; unknown keys are allowed so a
 * Claude Desktop file works unchanged.
 */
import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());

export const serverEntrySchema = z
  .looseObject({
    type: z.enum(['local', 'stdio', 'remote', 'http', 'sse']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().optional(),
    url: z.string().min(1).optional(),
    headers: stringMap.optional(),
    ca: z.string().optional(),
    disabled: z.boolean().optional(),
    timeout: z.number().positive().optional(),
    alwaysAllow: z.array(z.string()).optional(),
    description: z.string().optional(),
  })
  .superRefine((entry, context) => {
    const remote = entry.type === 'remote' || entry.type === 'http' || entry.type === 'sse';
    const local = entry.type === 'local' || entry.type === 'stdio';
    if ((remote || (!local && entry.command === undefined)) && entry.url === undefined) {
      if (remote) context.addIssue({ code: 'custom', path: ['url'], message: `a "${entry.type}" server needs "url"` });
      else context.addIssue({ code: 'custom', path: [], message: 'a server needs "command" (local) or "url" (remote)' });
    }
    if (local && entry.command === undefined) {
      context.addIssue({ code: 'custom', path: ['command'], message: `a "${entry.type}" server needs "command"` });
    }
  });

export type ServerEntry = z.infer<typeof serverEntrySchema>;

// Security and routing: names become the `server` in tool calls, so no spaces, dots or slashes.
const serverName = z.string().regex(/^[A-Za-z0-9_-]+$/, 'server names may use only letters, digits, "_" and "-"');
const serversSchema = z.record(serverName, serverEntrySchema);

export const configFileSchema = z
  .looseObject({
    ollama: z
      .object({
        base_url: z.string().min(1).optional(),
        model: z.string().min(1).optional(),
        timeout: z.number().positive().optional(),
        num_ctx: z.number().int().positive().optional(),
        tool_mode: z.enum(['auto', 'native', 'json']).optional(),
        options: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
    mcpServers: serversSchema.optional(),
    mcp_servers: serversSchema.optional(),
    history: z.object({ max_messages: z.number().int().min(2).max(1000).optional() }).optional(),
    logging: z.object({ level: z.string().optional(), file: z.string().min(1).optional() }).optional(),
  })
  .refine((file) => !(file.mcpServers && file.mcp_servers), {
    message: 'use either "mcpServers" or "mcp_servers", not both',
    path: ['mcp_servers'],
  });

export type ConfigFile = z.infer<typeof configFileSchema>;
