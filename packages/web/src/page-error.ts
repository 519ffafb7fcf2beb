/** An expected refusal (401, 403, 404, 400...) that the error handler renders as a page with this message. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

export const forbidden = () => new PageError(403, 'Your role does not give access to this page.');
export const notFoundError = () => new PageError(404, 'There is no such page.');
