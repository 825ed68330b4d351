import { formatDuration } from '../../core/duration.ts';
import { errorMessage, FlowError } from '../../core/errors.ts';
import { loadedMongoDriver } from './mongo-driver.ts';

/** `err` is an error of the driver's class `name` (false before the driver is loaded: it threw nothing then). */
function isDriverError<N extends 'MongoBulkWriteError' | 'MongoServerError' | 'MongoServerSelectionError'>(
  err: unknown,
  name: N,
): err is InstanceType<NonNullable<ReturnType<typeof loadedMongoDriver>>[N]> {
  const driver = loadedMongoDriver();
  return driver !== undefined && err instanceof driver[name];
}

/**
 * Why the connector could not start, in words a person can act on; never holds the password.
 * `verifyOnStart: false` is offered only where the check is on (the background warm-up of an
 * unchecked start reports the same failure as a warning).
 */
export function startupFailure(
  err: unknown,
  at: { maskedUri: string; user: string | undefined; timeoutMs: number },
  scrub: (text: string) => string,
  checkedOnStart = true,
  /** The driver's last failed attempt to reach the server, when a deadline ended the wait first. */
  lastAttempt?: Error,
): string {
  const reason = scrub(errorMessage(err)) + (lastAttempt ? `; last attempt: ${scrub(errorMessage(lastAttempt))}` : '');
  if (isAuthFailure(err)) {
    return `the server refused the credentials of user "${at.user ?? '(none)'}" (${reason}); check the user in uri and the password setting`;
  }
  if (isDriverError(err, 'MongoServerSelectionError') || isTimeout(err)) {
    return `could not reach the server at ${at.maskedUri} within ${formatDuration(at.timeoutMs)} (${reason}); check the host and port in uri${checkedOnStart ? ', or set verifyOnStart: false to start without the check' : ''}`;
  }
  if (isDriverError(err, 'MongoServerError')) return `the server refused the startup ping at ${at.maskedUri}: ${reason}`;
  return `${reason} (uri ${at.maskedUri})`;
}

/** A driver failure during an operation as a flow error; a duplicate key answers 409. */
export function operationFailure(err: unknown, what: string, timeoutMs: number, scrub: (text: string) => string): FlowError {
  if (isTimeout(err)) {
    return new FlowError(`${what} did not finish within the connector timeout (${formatDuration(timeoutMs)})`, { status: 504, cause: err });
  }
  if (isDriverError(err, 'MongoServerSelectionError')) {
    return new FlowError(`${what} could not reach the server within ${formatDuration(timeoutMs)}: ${scrub(errorMessage(err))}`, { status: 503, cause: err });
  }
  const duplicate = isDriverError(err, 'MongoServerError') && err.code === 11000;
  return new FlowError(`${what} failed: ${scrub(errorMessage(err))}`, duplicate ? { status: 409, cause: err } : { cause: err });
}

/**
 * How many documents of a failed insert were written anyway: the server reports it for a batch,
 * and a command the server refused wrote nothing. Unknown after a timeout or a lost connection.
 */
export function insertedBeforeFailure(err: unknown): number | undefined {
  if (isDriverError(err, 'MongoBulkWriteError')) return err.insertedCount;
  if (isDriverError(err, 'MongoServerError')) return 0;
  return undefined;
}

function isAuthFailure(err: unknown): boolean {
  if (!isDriverError(err, 'MongoServerError')) return false;
  return err.code === 18 || err.codeName === 'AuthenticationFailed';
}

/** Our own deadline (AbortSignal.timeout) or the driver's. */
function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'MongoOperationTimeoutError');
}
