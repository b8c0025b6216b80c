import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { errorText } from './error-text.js';
import { I18n } from './i18n.svelte.js';

describe('the words of a refusal', () => {
  it('say when to try again when the server said so, in the reader’s language', () => {
    const limited = { code: ErrorCode.RateLimited, message: 'Too many requests; try again in 37 minutes', retryAfterSeconds: 37 * 60 - 20 };
    expect(errorText(new I18n('en'), limited)).toBe('Too many attempts from you or your network; try again in 37 min.');
    expect(errorText(new I18n('vi'), limited)).toBe('Có quá nhiều lượt từ bạn hoặc mạng của bạn; hãy thử lại sau 37 phút.');
    expect(errorText(new I18n('en'), { ...limited, retryAfterSeconds: 45 })).toContain('try again in 45 s.');
  });

  it('keep "slow down" for a limit of the moment, which says no wait', () => {
    expect(errorText(new I18n('en'), { code: ErrorCode.RateLimited, message: 'Too many messages; slow down' })).toBe('Too many actions at once; slow down.');
  });
});
