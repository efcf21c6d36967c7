/**
 * How tools are named, in one place: `server.tool` for people (tool lines, hints, the
 * catalogue), `server__tool` for a model's native tool list (the one separator that every
 * function-name grammar accepts), and how a name a model wrote is split back into readings.
 */

/** What names a tool: a spec's `name` and a call's `tool` are the same thing. */
export interface ToolRef {
  server: string;
  tool: string;
}

/** The server name of mcp-chat's own tools (`find_tools`): no configured server may take it. */
export const BUILT_IN_SERVER = 'mcp-chat';
/** mcp-chat's own tool: no server's tool may take its name either. */
export const FIND_TOOLS_NAME = 'find_tools';

const MODEL_SEPARATOR = '__';
/** Separators models write between server and tool, the native one first. */
const WRITTEN_SEPARATORS = [MODEL_SEPARATOR, '.', '/', ':'];

/** A call (`tool`) or a spec (`name`): either names one tool of one server. */
type Named = ToolRef | { server: string; name: string };

const toolOf = (named: Named): string => ('tool' in named ? named.tool : named.name);

/** `server.tool`: the name people read. */
export function displayName(named: Named): string {
  return `${named.server}.${toolOf(named)}`;
}

/** `server__tool`: the name offered to a model with native tool calling. */
export function modelName(named: Named): string {
  return `${named.server}${MODEL_SEPARATOR}${toolOf(named)}`;
}

/** Every qualified name a model may write for a tool: `server__tool`, `server.tool`, `server/tool`, `server:tool`. */
export function writtenForms(named: Named): string[] {
  return WRITTEN_SEPARATORS.map((separator) => `${named.server}${separator}${toolOf(named)}`);
}

/** A model name split back at its separator; without one, the whole name is the tool. */
export function fromModelName(name: string): ToolRef {
  const at = name.indexOf(MODEL_SEPARATOR);
  return at < 0
    ? { server: '', tool: name }
    : { server: name.slice(0, at), tool: name.slice(at + MODEL_SEPARATOR.length) };
}

/** Every (server, tool) reading of a qualified name a model wrote, such as `github.list_files`. */
export function nameReadings(name: string): ToolRef[] {
  const readings: ToolRef[] = [];
  for (const separator of WRITTEN_SEPARATORS) {
    for (const at of new Set([name.indexOf(separator), name.lastIndexOf(separator)])) {
      if (at > 0 && at + separator.length < name.length) {
        readings.push({ server: name.slice(0, at), tool: name.slice(at + separator.length) });
      }
    }
  }
  return readings;
}
