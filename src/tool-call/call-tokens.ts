/**
 * The special tokens of the call formats the detector reads: those around a call, those
 * that only ever introduce one, and the end-of-turn tokens templates leave in content.
 * Policy: tokens are matched exactly as the templates print them; none of them is prose.
 */

// Tokens and tags around calls, left out of the prose a call is judged by.
export const CALL_TOKENS = [
  '<|python_tag|>',
  '<|python_start|>',
  '<|python_end|>',
  '<|START_ACTION|>',
  '<|END_ACTION|>',
  '<|tool_call|>',
  '<|/tool_call|>',
  '<tool_call>',
  '</tool_call>',
  '<tool>',
  '</tool>',
  '</function>',
  '<seed:tool_call>',
  '</seed:tool_call>',
  '<TOOLCALL>',
  '</TOOLCALL>',
  '<tool_calls>',
  '</tool_calls>',
  '<|tool_call_start|>',
  '<|tool_call_end|>',
];
export const OPENING_TOKENS = new Set([
  '<|python_tag|>',
  '<|python_start|>',
  '<|tool_call|>',
  '<tool_call>',
  '<tool>',
  '<|START_ACTION|>',
  '<seed:tool_call>',
  '<TOOLCALL>',
  '<tool_calls>',
  '<|tool_call_start|>',
]);
// End-of-turn, role and answer tokens of the templates the detector reads: never prose.
export const END_TOKENS = [
  '<|eom_id|>',
  '<|eot_id|>',
  '<|end|>',
  '<|im_end|>',
  '<|end_of_text|>',
  '</s>',
  '<end_of_turn>',
  '<turn|>',
  '<\uFF5Cend\u2581of\u2581sentence\uFF5C>',
  '<|end\u2581of\u2581sentence|>',
  '<|end_of_sentence|>',
  '<|im_start|>assistant',
  '<start_of_turn>model',
  '<|start_header_id|>assistant<|end_header_id|>',
  '<|END_OF_TURN_TOKEN|>',
  '<|START_RESPONSE|>',
  '<|END_RESPONSE|>',
  '<|START_TEXT|>',
  '<|END_TEXT|>',
  '<|assistant_end|>',
  '<|open|>response<|sep|>',
  '<|close|>response<|sep|>',
  '<|close|>message<|sep|>',
  '<|end_of_msg|>',
  '<answer>',
  '</answer>',
];
// Special tokens that only ever begin a call, in the formats read as blocks (a reply opening with one
// is an attempt). Plain XML tags are not among them: prose may start with one.
export const BLOCK_OPENERS = [
  '<|tool_calls_section_begin|>',
  '<|tool_call_begin|>',
  '<\uFF5Ctool\u2581calls\u2581begin\uFF5C>',
  '<\uFF5Ctool\u2581call\u2581begin\uFF5C>',
  '<|tool\u2581calls\u2581begin|>',
  '<|tool_calls_begin|>',
  '<\uFF5CDSML\uFF5Cfunction_calls>',
  '<\uFF5CDSML\uFF5Ctool_calls>',
  '<\uFF5C\uFF5CDSML\uFF5C\uFF5Ctool_calls>',
  '<|open|>tools<|sep|>',
  '<minimax:tool_call>',
  '<|tool_call>',
  '<start_function_call>',
];
