import unhomoglyph from 'unhomoglyph';

/** The form a username is found by: "Lan", "LAN" and "lan" are one account, and so are composed and decomposed Vietnamese. */
export function usernameKey(username: string): string {
  return username.normalize('NFC').toLocaleLowerCase('und');
}

/**
 * What a username looks like: its compatibility form (NFKC: fullwidth
 * "ａ" and bold "𝐚" are "a"), case-folded, then Unicode's confusable
 * skeleton (UTS #39: Cyrillic "а" is Latin "a", "rn" is "m", "0" is "o").
 * No two accounts share one. Accents stay, each its own mark, so "Văn",
 * "Vân" and "Van" are three names.
 */
export function usernameSkeleton(username: string): string {
  return unhomoglyph(username.normalize('NFKC').toLocaleLowerCase('und').normalize('NFD')).toLocaleLowerCase('und').normalize('NFD');
}
