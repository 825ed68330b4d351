/**
 * A refusal meant for the person using the studio (bad id, bad path, unknown method). Its message
 * crosses the transport as is; any other error is reported with its message too, but logged.
 */
export class StudioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StudioError';
  }
}
