import type * as Mongo from 'mongodb';

let driver: typeof Mongo | undefined;

/**
 * The MongoDB driver, loaded when the first docstore connector starts: it is the largest module
 * the runtime uses (a fifth of a second and tens of MB on a small machine), and a flow without
 * a docstore never needs it.
 */
export async function loadMongoDriver(): Promise<typeof Mongo> {
  return (driver ??= await import('mongodb'));
}

/** The driver once a connector has loaded it; a driver error can only come from a loaded driver. */
export function loadedMongoDriver(): typeof Mongo | undefined {
  return driver;
}
