import type { RunProblem } from '../../shared/studio-api.ts';
import { type Runtime } from '../runtime/index.ts';

/**
 * Turns "address in use" from a starting runtime into a message that says which port and which
 * connector declared it, with its file:line:col, so the person knows what to change.
 */
export function portConflictProblem(err: unknown, runtime: Runtime): { reason: string; problem: RunProblem } | undefined {
  const e = findCode(err);
  if (!e) return undefined;
  const message = String(e.message);
  const port = typeof e.port === 'number' ? e.port : Number(/:(\d+)(?:\s|;|$)/.exec(message)?.[1] ?? NaN);
  const servers = runtime.definition.connectors.filter((c) => c.type === 'http');
  // The http connector names itself in its error: `http connector "web": 127.0.0.1:8080 is already in use`.
  const named = runtime.definition.connectors.find((c) => message.includes(`"${c.name}"`));
  const connector = named ?? (servers.length === 1 ? servers[0] : runtime.definition.connectors[0]);
  const portText = Number.isFinite(port) ? `port ${port}` : 'the port';
  const reason = `${portText} is already in use by another program; stop that program or change the port of ${connector ? `connector "${connector.name}"` : 'the http connector'}`;
  const location = connector?.location ?? { file: runtime.definition.files[0] ?? '', line: 1, col: 1 };
  return {
    reason,
    problem: { file: location.file, line: location.line, col: location.col, path: connector ? `connectors.${connector.name}.port` : '', message: reason },
  };
}

interface CodedError {
  code?: unknown;
  port?: unknown;
  message?: unknown;
  cause?: unknown;
}

function findCode(err: unknown, depth = 0): CodedError | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const e = err as CodedError;
  if (e.code === 'EADDRINUSE' || /EADDRINUSE|already in use/.test(String(e.message))) return e;
  return findCode(e.cause, depth + 1);
}
