import unhomoglyph from 'unhomoglyph';

/** The form a username is found by: "Lan", "LAN" and "lan" are one account, and so are composed and decomposed Vietnamese. */
export function usernameKey(username: string): string {
  return username.normalize('NFC').toLocaleLowerCase('und');
}

/**
 * Small capitals Unicode's confusables leave out, because none is quite the
 * lowercase letter; on screen each is its capital, smaller: "ᴀdmin" reads
 * as "Admin".
 */
const SMALL_CAPITALS: Readonly<Record<string, string>> = {
  ᴀ: 'A',
  ʙ: 'B',
  ᴅ: 'D',
  ᴇ: 'E',
  ꜰ: 'F',
  ɢ: 'G',
  ʜ: 'H',
  ᴊ: 'J',
  ʟ: 'L',
  ɴ: 'N',
  ᴘ: 'P',
  ʀ: 'R',
  ᴛ: 'T',
};

const SMALL_CAPITAL = new RegExp(`[${Object.keys(SMALL_CAPITALS).join('')}]`, 'gu');

// A dot above on i or j stands where their own dot is: "ı̇" and "i̇" show as "i".
const DOT_ON_DOTTED = /(?<=[ij])\u0307/gu;

/** UTS #39's skeleton over the whole of Unicode's confusables.txt, which unhomoglyph carries. */
function confusableSkeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD').replace(SMALL_CAPITAL, (letter) => SMALL_CAPITALS[letter]!)).normalize('NFD');
}

/**
 * What a name looks like: its compatibility form (NFKC: fullwidth "ａ" and
 * bold "𝐚" are "a"), then Unicode's confusable skeleton (UTS #39: Cyrillic
 * "а" is Latin "a", "rn" is "m", "0" is "O", and capital "I" is "l", so
 * "miIIion" is "million"), only then lowercased, so that "0" and "o" meet,
 * and mapped once more for what lowercasing turned up. Lowercasing first
 * would make that "I" an "i" and let it pass. Case alone is the username's
 * key's business. No two accounts share a skeleton, and no display name
 * takes another's. Accents stay, each its own mark, so "Văn", "Vân" and
 * "Van" are three names.
 */
export function usernameSkeleton(username: string): string {
  return confusableSkeleton(confusableSkeleton(username.normalize('NFKC')).toLocaleLowerCase('und')).replace(DOT_ON_DOTTED, '');
}
