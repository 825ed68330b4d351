import { FlowError } from '../../core/errors.ts';
import { VersionConflictError } from '../../services/platform-error.ts';

/** A version conflict fails the message with status 409, so an error chain can answer Conflict. */
export function asFlowError(err: unknown): unknown {
  if (err instanceof VersionConflictError) return new FlowError(err.message, { status: 409, cause: err });
  return err;
}

/** An expected version from CEL: a whole number >= 0, or undefined when the expression gave null. */
export function versionOf(value: unknown, path: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FlowError(`${path}.expectedVersion must be a whole number >= 0 (0 creates), got ${JSON.stringify(value)}`);
  }
  return value;
}

export function keyOf(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') throw new FlowError(`${path}.key must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}
