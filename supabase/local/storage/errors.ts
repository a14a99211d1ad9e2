/**
 * Errors as Supabase's storage-api renders them: the body is
 * `{ statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' }` and
 * the HTTP status is 400 for every client error (500 for server errors), exactly as storage-api
 * answers. supabase-js exposes the body's code as `error.statusCode` and the HTTP status as
 * `error.status`, so code written against the local stack behaves the same on a hosted project.
 */

export type StorageErrorBody = {
  statusCode: string;
  code: string;
  error: string;
  message: string;
};

export class StorageApiError extends Error {
  constructor(
    /** The semantic status (404, 409, 413, 415, …), rendered as the body's `statusCode`. */
    readonly statusCode: number,
    readonly code: string,
    readonly error: string,
    message: string,
    /** The HTTP status; storage-api answers 400 for every client error. */
    readonly httpStatus: number = statusCode >= 500 ? 500 : 400,
  ) {
    super(message);
    this.name = 'StorageApiError';
  }

  render(): StorageErrorBody {
    return {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.error,
      message: this.message,
    };
  }
}

export const ERRORS = {
  noSuchBucket: () =>
    new StorageApiError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageApiError(404, 'NoSuchKey', 'not_found', 'Object not found'),
  invalidKey: (key: string, detail = '') =>
    new StorageApiError(400, 'InvalidKey', 'InvalidKey', `Invalid key: ${key}${detail}`),
  invalidBucketName: () =>
    new StorageApiError(400, 'InvalidBucketName', 'Invalid Input', 'Bucket name invalid'),
  entityTooLarge: (entity = 'object') =>
    new StorageApiError(
      413,
      'EntityTooLarge',
      'Payload too large',
      `The ${entity} exceeded the maximum allowed size`,
    ),
  invalidMimeType: (mimeType: string, detail = '') =>
    new StorageApiError(
      415,
      'InvalidMimeType',
      'invalid_mime_type',
      `mime type ${mimeType} is not supported${detail}`,
    ),
  duplicate: (code: 'KeyAlreadyExists' | 'BucketAlreadyExists' | 'ResourceAlreadyExists') =>
    new StorageApiError(409, code, 'Duplicate', 'The resource already exists'),
  accessDenied: (message = 'Access denied') =>
    new StorageApiError(403, 'AccessDenied', 'Unauthorized', message),
  invalidJwt: (message: string) => new StorageApiError(400, 'InvalidJWT', 'InvalidJWT', message),
  invalidSignature: () =>
    new StorageApiError(400, 'InvalidSignature', 'InvalidSignature', 'Invalid signature'),
  bucketNotEmpty: () =>
    new StorageApiError(
      409,
      'ResourceNotEmpty',
      'ResourceNotEmpty',
      'The bucket you tried to delete is not empty',
    ),
  relatedResourceNotFound: () =>
    new StorageApiError(
      404,
      'InvalidRequest',
      'InvalidRequest',
      'The related resource does not exist',
    ),
  invalidRequest: (message: string) =>
    new StorageApiError(400, 'InvalidRequest', 'InvalidRequest', message),
  invalidRange: () =>
    new StorageApiError(400, 'InvalidRange', 'invalid_range', 'invalid range provided'),
  /** Fastify's schema validation errors, which storage-api lets through as they are. */
  badRequest: (message: string) =>
    new StorageApiError(400, 'InvalidRequest', 'Bad Request', message),
  routeNotFound: (method: string, path: string) =>
    new StorageApiError(404, 'NotFound', 'Not Found', `Route ${method}:${path} not found`, 404),
  internal: (message = 'Internal Server Error') =>
    new StorageApiError(500, 'InternalError', 'Internal', message),
} as const;

type PgError = { code?: unknown; message?: unknown };

function isPgError(error: unknown): error is PgError & { code: string; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as PgError).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as PgError).code as string) &&
    typeof (error as PgError).message === 'string'
  );
}

/**
 * Maps what Postgres refused to storage-api's errors (its DBError.fromDBError): an RLS refusal
 * is 403 AccessDenied, a unique violation 409 Duplicate, a missing foreign row 404.
 * Anything else is returned as is (the caller renders it as a 500).
 */
export function fromDbError(
  error: unknown,
  duplicate: Parameters<typeof ERRORS.duplicate>[0] = 'ResourceAlreadyExists',
): unknown {
  if (!isPgError(error)) return error;
  switch (error.code) {
    case '42501':
      return ERRORS.accessDenied(
        error.message.includes('row-level security')
          ? 'new row violates row-level security policy'
          : error.message,
      );
    case '23505':
      return ERRORS.duplicate(duplicate);
    case '23503':
      return ERRORS.relatedResourceNotFound();
    case '22P02':
    case 'P0001': // raised by a trigger or function of the project: its message is for the client
      return ERRORS.badRequest(error.message);
    default:
      return error;
  }
}
