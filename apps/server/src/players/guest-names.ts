import { randomInt } from 'node:crypto';
import type { Lang } from '@oanquan/protocol';

// The twelve animals of the Vietnamese zodiac, in the guest's own language:
// short, friendly, and clearly not somebody's real name.
const ANIMALS: Record<Lang, readonly string[]> = {
  vi: ['Chuột', 'Trâu', 'Hổ', 'Mèo', 'Rồng', 'Rắn', 'Ngựa', 'Dê', 'Khỉ', 'Gà', 'Chó', 'Lợn'],
  en: ['Rat', 'Buffalo', 'Tiger', 'Cat', 'Dragon', 'Snake', 'Horse', 'Goat', 'Monkey', 'Rooster', 'Dog', 'Pig'],
};

export function guestName(lang: Lang): string {
  const animals = ANIMALS[lang];
  return `${animals[randomInt(animals.length)]} ${randomInt(100, 1000)}`;
}
