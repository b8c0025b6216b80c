import { describe, expect, it } from 'vitest';
import { usernameKey, usernameSkeleton } from './username-forms.js';

describe('username forms', () => {
  it('give look-alikes of a name its skeleton', () => {
    const admin = usernameSkeleton('admin');
    for (const lookalike of ['\u0430dmin', 'ａｄｍｉｎ', '𝐚𝐝𝐦𝐢𝐧', 'ADMIN', 'adrnin']) expect(usernameSkeleton(lookalike)).toBe(admin);
    expect(usernameSkeleton('b0b')).toBe(usernameSkeleton('bob'));
  });

  it('keep Vietnamese names apart by their accents, whether composed or not', () => {
    expect(usernameKey('Nguye\u0302\u0303n')).toBe(usernameKey('Nguyễn'));
    expect(usernameSkeleton('Nguye\u0302\u0303n')).toBe(usernameSkeleton('NGUYỄN'));
    expect(usernameSkeleton('ｎｇｕｙｅ\u0302\u0303ｎ')).toBe(usernameSkeleton('Nguyễn'));
    const names = ['Văn', 'Vân', 'Van', 'Vắn', 'Đức', 'Duc', 'Dức', 'Hiếu', 'Hiểu', 'Hieu', 'ươ', 'uo'];
    expect(new Set(names.map(usernameSkeleton)).size).toBe(names.length);
  });
});
