import type { CompiledCel } from '../../core/cel.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import type { Message } from '../../core/message.ts';
import { NotesApiError } from './notes-api-client.ts';

/** Settings every block that calls the notes API shares, declared once (spec 3 §2.1). */
export const connectorSetting = {
  type: 'string',
  required: true,
  connectorType: 'notes',
  description: 'Name of the notes connector.',
} as const;

export const failOnErrorSetting = {
  type: 'boolean',
  default: true,
  description: 'true: a notes API error fails the flow; false: the message passes through unchanged.',
} as const;

/**
 * Runs the calls of one step and applies its result only when they all succeed, so that with
 * `failOnError: false` a failed call leaves the message exactly as it came in.
 */
export async function apiStep(msg: Message, failOnError: boolean, calls: () => Promise<(msg: Message) => void>): Promise<Message> {
  let apply: (msg: Message) => void;
  try {
    apply = await calls();
  } catch (err) {
    if (err instanceof NotesApiError && !failOnError) return msg;
    throw err;
  }
  apply(msg);
  return msg;
}

/** An object id from a CEL setting; anything but a non-empty string is the flow's mistake, not the API's. */
export function idFrom(expr: CompiledCel, msg: Message, setting: string): string {
  const value = expr.evaluate(activationOf(msg));
  if (typeof value !== 'string' || value.trim() === '') {
    throw new FlowError(`${setting} must evaluate to a notes id (a non-empty string), got ${describe(value)}`);
  }
  return value.trim();
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'an empty string';
  return Array.isArray(value) ? 'a list' : typeof value;
}
