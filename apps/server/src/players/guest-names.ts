import { randomInt } from 'node:crypto';
import type { Lang } from '@oanquan/protocol';

// Flowers, trees, birds and a few kind beasts, in the guest's own language:
// short, pleasant to be called by, and with the number clearly not somebody's
// real name. No farm or street animal: in Vietnamese "lợn", "chó", "bò", "gà"
// (a weak player), "dê" (a lecher) or "ngựa" are said to insult.
export const GUEST_NAME_WORDS: Record<Lang, readonly string[]> = {
  vi: ['Sen', 'Tre', 'Thông', 'Hoa Mai', 'Hoa Đào', 'Sơn Ca', 'Chích Chòe', 'Bói Cá', 'Hạc', 'Thiên Nga', 'Sóc', 'Hổ', 'Rồng', 'Mây', 'Suối'],
  en: ['Lotus', 'Bamboo', 'Pine', 'Apricot', 'Peach', 'Skylark', 'Robin', 'Kingfisher', 'Crane', 'Swan', 'Squirrel', 'Tiger', 'Dragon', 'Cloud', 'Brook'],
};

export function guestName(lang: Lang): string {
  const words = GUEST_NAME_WORDS[lang];
  return `${words[randomInt(words.length)]} ${randomInt(100, 1000)}`;
}
