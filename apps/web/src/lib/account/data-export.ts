import { refusalOf } from '$lib/net/api';
import { ClientErrorCode, failure, type Failure } from '$lib/net/client-error';

/** When nothing better is said: what the server names its files, without the name and day. */
const FALLBACK_NAME = 'oanquan-data.json';

/** The file name of a Content-Disposition header (RFC 6266): the exact UTF-8 one when given, else the plain one. */
export function downloadName(header: string | null): string {
  const exact = header?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact);
    } catch {
      // A malformed escape: the plain name is still there.
    }
  }
  return header?.match(/filename="([^"]+)"/i)?.[1] ?? FALLBACK_NAME;
}

/**
 * Fetches everything the site holds about the signed-in person and hands it
 * to the browser as a file. Fetched rather than linked, so that a refusal
 * (the limit per hour) is shown on the page instead of a failed download.
 */
export async function downloadMyData(): Promise<{ ok: true; name: string } | Failure> {
  let response: Response;
  let file: Blob;
  try {
    response = await fetch('/api/account/export', { headers: { accept: 'application/json' } });
    if (!response.ok) return refusalOf(response);
    file = await response.blob();
  } catch (error) {
    return failure(ClientErrorCode.Network, error instanceof Error ? error.message : String(error));
  }
  const name = downloadName(response.headers.get('content-disposition'));
  const url = URL.createObjectURL(file);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the page lets go of it a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { ok: true, name };
}
