import type { IncomingMessage } from 'node:http';
import { RUN_ID_HEADER, runIdFromHeader } from '../../../shared/run-id-header.ts';

/** `{ runId }` when the request named the run it was made for (X-Flow-Run-Id), else nothing. */
export function runOf(req: IncomingMessage): { runId?: string } {
  const runId = runIdFromHeader(req.headers[RUN_ID_HEADER]);
  return runId ? { runId } : {};
}
