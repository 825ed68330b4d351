/** A request the route refuses before any flow runs (answered 400 with `{error}`). */
export class BadRequestError extends Error {}
