import { Halt } from './component.ts';
import type { Message } from './message.ts';

/**
 * A validation filter's rejection (spec 2 §3.1, §7): the flow ends early, answering its own 4xx
 * with `{error: reason}` before any SSE frame. It is the caller's fault, not a failure of ours,
 * so no error chain runs and a webhook sender does not read it as a server error to retry.
 */
export function rejectRequest(msg: Message, status: number, reason: string): Halt {
  msg.vars.httpStatus = status;
  msg.body = { error: reason };
  return new Halt(msg);
}
