/**
 * A failure answered with the contract's error body `{error: {code, message}}`. The runtime
 * quotes the first 512 bytes of that body in its own errors, so messages say what was wrong,
 * where (the field, header or parameter), and what to do.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (code: string, message: string): ApiError => new ApiError(400, code, message);
export const notFound = (code: string, message: string): ApiError => new ApiError(404, code, message);
export const conflict = (code: string, message: string): ApiError => new ApiError(409, code, message);
export const tooLarge = (code: string, message: string): ApiError => new ApiError(413, code, message, { connection: 'close' });
