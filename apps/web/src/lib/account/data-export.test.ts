import { describe, expect, it } from 'vitest';
import { downloadName } from './data-export';

describe('the name of the downloaded file', () => {
  it('is the exact UTF-8 name when the server gives one', () => {
    expect(downloadName(`attachment; filename="oanquan-_n-2026-12-07.json"; filename*=UTF-8''oanquan-%C3%A2n-2026-12-07.json`)).toBe('oanquan-ân-2026-12-07.json');
  });

  it('is the plain name without one, or when it is malformed', () => {
    expect(downloadName('attachment; filename="oanquan-lan-2026-12-07.json"')).toBe('oanquan-lan-2026-12-07.json');
    expect(downloadName(`attachment; filename="oanquan-lan.json"; filename*=UTF-8''%E0%A4%A`)).toBe('oanquan-lan.json');
  });

  it('is a name of the site’s own when the header says none', () => {
    expect(downloadName(null)).toBe('oanquan-data.json');
  });
});
