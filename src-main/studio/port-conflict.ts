import { createServer } from 'node:net';
import type { PortClash, RunProblem } from '../../shared/studio-api.ts';
import { type Runtime } from '../runtime/index.ts';

/** Who of this studio holds a port: an integration's connector. */
export type PortOwner = (port: number) => { integration: string; connector: string } | undefined;

export interface PortConflict {
  reason: string;
  problem: RunProblem;
  clash: PortClash;
}

/**
 * Turns "address in use" from a starting runtime into a message that says which port and which
 * connector declared it, with its file:line:col, who holds it when that is another integration of
 * this studio, and a free port to move to.
 */
export function portConflictProblem(
  err: unknown,
  runtime: Runtime,
  context: { ownerOf: PortOwner; suggestion: number; remembered: (connector: string) => boolean },
): PortConflict | undefined {
  const e = findCode(err);
  if (!e) return undefined;
  const message = String(e.message);
  const port = typeof e.port === 'number' ? e.port : Number(/:(\d+)(?:\s|;|$)/.exec(message)?.[1] ?? NaN);
  const servers = runtime.definition.connectors.filter((c) => c.type === 'http');
  // The http connector names itself in its error: `http connector "web": 127.0.0.1:8080 is already in use`.
  const named = runtime.definition.connectors.find((c) => message.includes(`"${c.name}"`));
  const connector = named ?? (servers.length === 1 ? servers[0] : runtime.definition.connectors[0]);
  const name = connector?.name ?? 'web';
  const portText = Number.isFinite(port) ? `port ${port}` : 'the port';
  const heldBy = Number.isFinite(port) ? context.ownerOf(port) : undefined;
  const remembered = context.remembered(name);
  const holder = heldBy ? `integration "${heldBy.integration}" (its connector "${heldBy.connector}")` : 'another program';
  const what = remembered ? `the port connector "${name}" was given before (it asks for port 0)` : `connector "${name}"'s port`;
  const reason = `${portText} is already in use by ${holder}: ${what} cannot be bound; use port ${context.suggestion} instead${heldBy ? `, or stop ${heldBy.integration}` : ''}`;
  const location = connector?.location ?? { file: runtime.definition.files[0] ?? '', line: 1, col: 1 };
  const clash: PortClash = { connector: name, port, remembered, suggestion: context.suggestion };
  if (heldBy) clash.heldBy = heldBy;
  return {
    reason,
    problem: { file: location.file, line: location.line, col: location.col, path: `connectors.${name}.port`, message: reason },
    clash,
  };
}

/** Whether an error is a port already in use, anywhere in its causes. */
export function isPortInUse(err: unknown): boolean {
  return findCode(err) !== undefined;
}

/** A port free on the loopback interface a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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
