import { ClientErrorCode, failure, isErrorBody, type Failure } from './client-error.js';

export type ApiResult<T> = { ok: true; data: T } | Failure;

export interface ApiInit {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
}

/** One REST call; every failure, the network's included, comes back as a value to show. */
export async function apiRequest<T>(path: string, init: ApiInit = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    return failure(ClientErrorCode.Network, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) return refusalOf(response);
  const body: unknown = await response.json().catch(() => undefined);
  return body === undefined ? failure(ClientErrorCode.Network, `HTTP ${response.status}`, response.status) : { ok: true, data: body as T };
}

/** What a response that is not ok says: the server's code and Retry-After, or a network failure for an answer that is not the server's. */
export async function refusalOf(response: Response): Promise<Failure> {
  const body: unknown = await response.json().catch(() => undefined);
  if (isErrorBody(body)) return failure(body.code, body.message, response.status, retryAfter(response.headers.get('retry-after')));
  return failure(ClientErrorCode.Network, `HTTP ${response.status}`, response.status);
}

/** Retry-After as seconds (the form the server sends); an HTTP date or nonsense is ignored. */
function retryAfter(header: string | null): number | undefined {
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}
