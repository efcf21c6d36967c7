/**
 * Import rules for src/ and servers/, checked by `npm run lint:deps`.
 *
 * src/ layers, in the order the data flows, bottom up (a layer may import only the layers listed
 * for it, and itself):
 *   shared      -> (nothing)                  helpers: errors, log, paths, atomic writes
 *   vocabulary  -> shared                     the types and names every layer speaks
 *   config      -> shared, vocabulary         the config file and environment
 *   tool-call   -> shared, vocabulary         the detector: tool calls in a model's reply text
 *   ollama      -> shared, config, vocabulary the model client
 *   mcp         -> shared, config, vocabulary the MCP host and its servers
 *   engine      -> shared, vocabulary, tool-call   the MCPChatbot: conversation, calls, tool selection
 *   state       -> shared, vocabulary, config, engine   what is kept under $XDG_STATE_HOME
 *   session     -> all of the above           the composition root: ChatSession and its services
 *   present     -> shared, vocabulary, engine text views for the front ends
 *   ui          -> shared, vocabulary, tool-call, present, session, state   the Ink REPL
 *   mcp-server  -> all of the above but ui    a front end: mcp-chat as an MCP server for other agents
 *   serve       -> shared, vocabulary, config, ollama, mcp, session, state   `serve`: WebSocket and page
 *   acp         -> shared, vocabulary, config, ollama, present, session, state   the editors' agent (ACP)
 *   cli/, cli.ts -> anything in src/
 * Because every layer names what it may import, nothing below cli may import src/cli/, src/cli.ts,
 * or a file left loose in the src/ root.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
/** What each folder of src/ may import besides itself; src/cli/ and src/cli.ts may import anything. */
const LAYERS = [
  ['shared', []],
  ['vocabulary', ['shared']],
  ['config', ['shared', 'vocabulary']],
  ['tool-call', ['shared', 'vocabulary']],
  ['ollama', ['shared', 'config', 'vocabulary']],
  ['mcp', ['shared', 'config', 'vocabulary']],
  ['engine', ['shared', 'vocabulary', 'tool-call']],
  ['state', ['shared', 'vocabulary', 'config', 'engine']],
  ['session', ['shared', 'vocabulary', 'config', 'tool-call', 'ollama', 'mcp', 'engine', 'state']],
  ['present', ['shared', 'vocabulary', 'engine']],
  ['ui', ['shared', 'vocabulary', 'tool-call', 'present', 'session', 'state']],
  [
    'mcp-server',
    ['shared', 'vocabulary', 'config', 'tool-call', 'ollama', 'mcp', 'engine', 'state', 'session', 'present'],
  ],
  ['serve', ['shared', 'vocabulary', 'config', 'ollama', 'mcp', 'session', 'state']],
  ['acp', ['shared', 'vocabulary', 'config', 'ollama', 'present', 'session', 'state']],
];

function layerRule([layer, allowed]) {
  const may = allowed.length === 0 ? 'nothing else in src/' : allowed.map((name) => `src/${name}/`).join(', ');
  return {
    name: `layer-${layer}`,
    severity: 'error',
    comment: `src/${layer}/ may import only ${may} (and itself): see "Layout" in README.md.`,
    from: { path: `^src/${layer}/` },
    to: { path: '^src/', pathNot: `^src/(${[...allowed, layer].join('|')})/` },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycle: these modules import each other (possibly through others, type-only imports included). ' +
        'Break the cycle, e.g. by moving the shared piece into a lower layer.',
      from: { path: '^(src|servers)/' },
      to: { circular: true },
    },

    ...LAYERS.map(layerRule),
    // src/cli/ and src/cli.ts may import anything in src/: no rule.

    // ---- servers/ ----
    {
      name: 'servers-not-src',
      severity: 'error',
      comment: 'servers/ are standalone MCP servers: they may not import anything from src/.',
      from: { path: '^servers/' },
      to: { path: '^src/' },
    },
    {
      name: 'servers-no-cross-import',
      severity: 'error',
      comment: "A server in servers/<name>/ may import servers/shared/ but not another server's folder.",
      from: { path: '^servers/([^/]+)/' },
      to: { path: '^servers/', pathNot: ['^servers/$1/', '^servers/shared/'] },
    },
  ],
  options: {
    // Only src/ and servers/ are cruised: not test/, bench/, scripts/, dist/, node_modules.
    includeOnly: '^(src|servers)/',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|dist-bench|coverage)/' },
    // Keep type-only imports (`import type`) as edges, so they count for cycles and layers.
    tsPreCompilationDeps: true,
    // Resolve with the project's compiler options; dependency-cruiser maps the NodeNext `.js`
    // specifiers (`./log.js`) to the .ts/.tsx sources itself.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
