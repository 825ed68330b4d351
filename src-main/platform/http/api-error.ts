/**
 * A failure answered with the contract's error body `{error: {code, message}}`. The runtime
 * quotes the first 512 bytes of that body in its own errors, so messages say what was wrong,
 * where (the field, header or parameter), and what to do.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, message: string, headers?: Record<string, string>) {
    // An answer, not a fault: nobody reads its stack, and capturing one was most of the cost of a
    // 401, 404 or 409 (a flood of unauthorized requests cost three times a served one).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export const badRequest = (code: string, message: string): ApiError => new ApiError(400, code, message);
export const notFound = (code: string, message: string): ApiError => new ApiError(404, code, message);
export const conflict = (code: string, message: string): ApiError => new ApiError(409, code, message);
export const tooLarge = (code: string, message: string): ApiError => new ApiError(413, code, message, { connection: 'close' });
