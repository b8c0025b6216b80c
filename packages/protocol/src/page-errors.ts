/**
 * The diagnostics channel on which the web app's server hooks report a page
 * that failed (a 404 included), for the server process to log as JSON with
 * its own logger: the web app has no logger of its own to share.
 */
export const PAGE_ERROR_CHANNEL = 'oanquan:page-error';

export interface PageError {
  error: unknown;
  status: number;
  method: string;
  path: string;
}
