import { describe, expect, it } from 'vitest';
import { usernameKey, usernameSkeleton } from './username-forms.js';

describe('username forms', () => {
  it('give look-alikes of a name its skeleton', () => {
    const admin = usernameSkeleton('admin');
    for (const lookalike of ['\u0430dmin', 'ａｄｍｉｎ', '𝐚𝐝𝐦𝐢𝐧', 'adrnin', 'adm\u0131\u0307n', 'adm\u0131n', 'admi\u0307n', '\u1d00dmin']) {
      expect(usernameSkeleton(lookalike), JSON.stringify(lookalike)).toBe(admin);
    }
    expect(usernameSkeleton('b0b')).toBe(usernameSkeleton('bob'));
  });

  it('take the skeleton before lowercasing, so a capital I is the l it looks like and not the i it stands for', () => {
    expect(usernameSkeleton('miIIion')).toBe(usernameSkeleton('million'));
    expect(usernameSkeleton('Ian')).toBe(usernameSkeleton('lan'));
    expect(usernameSkeleton('ian')).not.toBe(usernameSkeleton('lan'));
    // Case alone is the key's business: "ADMIN" is the account "admin", whatever its skeleton.
    expect(usernameKey('ADMIN')).toBe(usernameKey('admin'));
  });

  it('keep Vietnamese names apart by their accents, whether composed or not', () => {
    expect(usernameKey('Nguye\u0302\u0303n')).toBe(usernameKey('Nguyễn'));
    expect(usernameSkeleton('Nguye\u0302\u0303n')).toBe(usernameSkeleton('NGUYỄN'));
    expect(usernameSkeleton('ｎｇｕｙｅ\u0302\u0303ｎ')).toBe(usernameSkeleton('Nguyễn'));
    const names = ['Văn', 'Vân', 'Van', 'Vắn', 'Đức', 'Duc', 'Dức', 'Hiếu', 'Hiểu', 'Hieu', 'ươ', 'uo'];
    expect(new Set(names.map(usernameSkeleton)).size).toBe(names.length);
  });
});
