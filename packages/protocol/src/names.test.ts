import { describe, expect, it } from 'vitest';
import { createAccountRequest, nameProblem, renameRequest } from './index.js';

describe('names', () => {
  it('refuse what shows nothing or not what it is', () => {
    const invisible = ['admin\u034f', 'admin\ufe0f', '\u3164\u3164', '\uffa0', '\u115f', 'a\u200bb', 'a\u00adb', 'Lan\u202e', '\u2800', 'An\u3000Bình', 'a\u00a0b', 'x\u0007'];
    for (const name of invisible) expect(nameProblem(name), JSON.stringify(name)).toBe('NAME_INVISIBLE');
  });

  it('allow the accents Vietnamese stacks, and refuse piles, repeats and marks on nothing', () => {
    for (const name of ['Nguyễn Văn An', 'Nguyễn Văn An'.normalize('NFD'), 'Trần Thị Ngọc Ự', 'Mèo 527', 'ไก่', 'admin']) expect(nameProblem(name), name).toBeNull();
    for (const name of [`a${'\u0301'.repeat(23)}`, 'a\u0300\u0301\u0302\u0303', 'a\u0301\u0301', '\u0301a']) expect(nameProblem(name), JSON.stringify(name)).toBe('NAME_TOO_MANY_MARKS');
  });

  it('refuse letters of scripts in limited or historic use, and keep everyday ones', () => {
    for (const name of ['\u13aa\u13a0\u13b7\u13a5\u13c1', 'Lan\u16a0', '\ua4d0\ua4d3']) expect(nameProblem(name), name).toBe('NAME_UNCOMMON_SCRIPT');
    for (const name of ['Nguyễn Văn An', 'Đặng Thùy Dương', 'Иван', '東京', 'ไก่', 'Mèo 527 ☺']) expect(nameProblem(name), name).toBeNull();
  });

  it('keep the name closed accounts are shown under from anyone, in either language and any case', () => {
    for (const name of ['deleted player', 'Deleted  Player', ' DELETED PLAYER ', 'Người chơi đã xoá', 'người chơi đã xóa'.normalize('NFD')]) {
      const refused = renameRequest.safeParse({ name });
      expect(refused.success, name).toBe(false);
      expect(refused.error?.issues[0]).toMatchObject({ code: 'custom', params: { code: 'NAME_RESERVED' } });
    }
    for (const name of ['deleted players', 'player deleted', 'Người chơi']) expect(renameRequest.safeParse({ name }).success, name).toBe(true);
  });

  it('keep a username to one of the scripts that pass for each other', () => {
    const code = (username: string) => createAccountRequest.safeParse({ username, password: 'long enough' }).error?.issues.find((issue) => issue.code === 'custom')?.params;
    expect(code('p\u0430ypal')).toEqual({ code: 'USERNAME_MIXED_SCRIPTS' });
    expect(code('Lan\u03bf')).toEqual({ code: 'USERNAME_MIXED_SCRIPTS' });
    for (const username of ['Nguyễn_Văn_An', 'Иван_2', 'Σωκράτης', '東京_lan', 'ไก่_99']) expect(code(username), username).toBeUndefined();
  });

  it('name their error code in the schema issue, and compose what they accept', () => {
    const refused = renameRequest.safeParse({ name: '\u3164' });
    expect(refused.error?.issues).toContainEqual(expect.objectContaining({ code: 'custom', params: { code: 'NAME_INVISIBLE' } }));
    expect(renameRequest.parse({ name: ' Nguyễn Văn An '.normalize('NFD') }).name).toBe('Nguyễn Văn An'.normalize('NFC'));
    expect(createAccountRequest.safeParse({ username: 'admin\ufe0f', password: 'long enough' }).error?.issues).toContainEqual(
      expect.objectContaining({ params: { code: 'NAME_INVISIBLE' } }),
    );
  });
});
