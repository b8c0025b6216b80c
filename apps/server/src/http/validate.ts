import { ErrorCode } from '@oanquan/protocol';
import type { z } from 'zod';
import { ServiceError } from '../errors.js';

/** The edge check of every REST body and socket payload. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 3)
      .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
      .join('; ');
    throw new ServiceError(ErrorCode.BadRequest, `Malformed input: ${detail}`);
  }
  return parsed.data;
}
