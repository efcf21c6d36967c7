/**
 * Correction messages for the model when its call cannot run: what went wrong, that
 * nothing was run, the real tools as `server.tool`, and the exact JSON call format.
 * Policy: hints are plain instructions the model can act on in its next reply.
 */
import { assertNever } from '../shared/errors.js';
import type { ToolSpec } from '../vocabulary/types.js';
import { displayName } from '../vocabulary/tool-naming.js';

export type Problem =
  | { type: 'unknown-tool'; name: string; server?: string }
  | { type: 'ambiguous-tool'; name: string; candidates: ToolSpec[] }
  /** A configured server was named that lacks the tool: its own tools are listed, nothing is re-routed. */
  | { type: 'wrong-server'; name: string; server: string; serverTools: ToolSpec[] }
  | { type: 'bad-arguments'; spec: ToolSpec }
  | { type: 'unparseable' }
  | WithheldCall;

/**
 * A call written well enough to name but withheld: drafted inside the reasoning, where nothing
 * runs, or cut off before it was complete. `tools`: the tools it names, as written (none known: empty).
 */
export interface WithheldCall {
  type: 'in-reasoning' | 'cut-off';
  tools: string[];
}

/** The call format with the spacing the system prompt teaches. */
export function formatCall(server: string, tool: string, args: Record<string, unknown>): string {
  const entries = Object.entries(args).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  const head = `"action": "use_tool", "server": ${JSON.stringify(server)}, "tool": ${JSON.stringify(tool)}`;
  return `{${head}, "arguments": {${entries.join(', ')}}}`;
}

const TEMPLATE = formatCall('<server>', '<tool>', { '<parameter>': '<value>' });

function placeholder(name: string, schema: unknown): unknown {
  const type = typeof schema === 'object' && schema !== null && 'type' in schema ? schema.type : undefined;
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  return `<${name}>`;
}

function exampleFor(spec: ToolSpec): string {
  const properties = spec.inputSchema.properties ?? {};
  const required = spec.inputSchema.required ?? Object.keys(properties).slice(0, 1);
  const args = Object.fromEntries(required.map((name) => [name, placeholder(name, properties[name])]));
  return formatCall(spec.server, spec.name, args);
}

function describe(problem: Problem): string {
  switch (problem.type) {
    case 'unknown-tool':
      return problem.server
        ? `There is no tool "${problem.name}" on server "${problem.server}".`
        : `There is no tool named "${problem.name}".`;
    case 'ambiguous-tool':
      return `Several servers have a tool named "${problem.name}" (${problem.candidates
        .map(displayName)
        .join(', ')}): give the "server" too.`;
    case 'wrong-server':
      return problem.serverTools.length > 0
        ? `Server "${problem.server}" has no tool "${problem.name}"; its tools are: ${problem.serverTools
            .map(displayName)
            .join(', ')}.`
        : `Server "${problem.server}" has no tools available right now (it may have failed to start), so it cannot run "${problem.name}".`;
    case 'bad-arguments':
      return `The arguments for ${displayName(problem.spec)} must be a JSON object of parameter names and values.`;
    case 'unparseable':
      return 'Your tool call could not be read: it must be one valid JSON object, with double-quoted keys and strings.';
    case 'cut-off':
    case 'in-reasoning':
      return withheldLine(problem);
    default:
      return assertNever(problem);
  }
}

/** The one line a withheld call is answered with: what was not run, why, and how to make it run. */
export function withheldLine({ type, tools }: WithheldCall): string {
  const one = tools.length <= 1;
  const what =
    tools.length === 0
      ? 'Your tool call was'
      : `The call${one ? '' : 's'} to ${tools.join(', ')} ${one ? 'was' : 'were'}`;
  const it = one ? 'it' : 'them';
  return type === 'in-reasoning'
    ? `${what} not run: ${one ? 'it was' : 'they were'} inside your reasoning, where calls never run; to run ${it}, write ${it} in your reply, after the reasoning.`
    : `${what} not run: your reply ended before the call was complete; to run ${it}, send the whole call again, keeping long argument values short.`;
}

function relevantSpec(problems: Problem[], tools: ToolSpec[]): ToolSpec | undefined {
  for (const problem of problems) {
    if (problem.type === 'bad-arguments') return problem.spec;
    if (problem.type === 'ambiguous-tool') return problem.candidates[0];
    if (problem.type === 'wrong-server' && problem.serverTools[0]) return problem.serverTools[0];
  }
  return tools[0];
}

export function buildHint(problems: Problem[], tools: ToolSpec[]): string {
  // A withheld call was written well: the model needs to know where it went wrong, not the format again.
  const withheld = problems.filter((problem) => problem.type === 'cut-off' || problem.type === 'in-reasoning');
  if (withheld.length === problems.length) return [...new Set(problems.map(describe))].join('\n');
  const lines = [...new Set(problems.map(describe))];
  lines.push('Nothing was run.');
  const naming = new Set<Problem['type']>(['unknown-tool', 'ambiguous-tool', 'wrong-server']);
  if (problems.some((problem) => naming.has(problem.type))) {
    lines.push(`The available tools are: ${tools.length > 0 ? tools.map(displayName).join(', ') : 'none'}.`);
  }
  lines.push(`To use a tool, reply with only this JSON object and nothing else: ${TEMPLATE}`);
  const spec = relevantSpec(problems, tools);
  if (spec) lines.push(`For example: ${exampleFor(spec)}`);
  return lines.join('\n');
}
