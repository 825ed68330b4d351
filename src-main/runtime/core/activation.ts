import type { CelActivation } from './cel.ts';
import type { Message } from './message.ts';

/**
 * The names a CEL expression sees: `body`, `vars`, `correlationID` (spec 2 §2.2), and `error`
 * inside an error chain.
 */
export function activationOf(msg: Message): CelActivation {
  return { body: msg.body ?? null, vars: msg.vars, correlationID: msg.correlationId, error: msg.error ?? null };
}
