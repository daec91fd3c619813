/** The one error type services throw; the HTTP layer turns it into `{ error, details? }`. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 429 | 502 | 503 | 504,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, message, details);
export const notFound = (message = "Not found") => new AppError(404, message);
export const forbidden = (message: string) => new AppError(403, message);
export const conflict = (message: string) => new AppError(409, message);
