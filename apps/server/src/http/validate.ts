import { ErrorCode } from '@oanquan/protocol';
import type { z } from 'zod';
import { ServiceError } from '../errors.js';

/**
 * The edge check of every REST body and socket payload. A check that names
 * its error code (an invisible character in a name, …) is answered with that
 * code, so the client can say what to change; anything else is BAD_REQUEST.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const { issues } = parsed.error;
    const coded = issues.find((issue): issue is z.core.$ZodIssueCustom => issue.code === 'custom' && typeof issue.params?.code === 'string');
    const shown = coded ? [coded] : issues.slice(0, 3);
    const detail = shown.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
    if (coded) throw new ServiceError(coded.params!.code as ErrorCode, `Not allowed: ${detail}`);
    throw new ServiceError(ErrorCode.BadRequest, `Malformed input: ${detail}`);
  }
  return parsed.data;
}
