import { randomInt } from 'node:crypto';

// The twelve animals of the Vietnamese zodiac: short, friendly, and clearly
// not somebody's real name.
const ANIMALS = ['Chuột', 'Trâu', 'Hổ', 'Mèo', 'Rồng', 'Rắn', 'Ngựa', 'Dê', 'Khỉ', 'Gà', 'Chó', 'Lợn'];

export function guestName(): string {
  return `${ANIMALS[randomInt(ANIMALS.length)]} ${randomInt(100, 1000)}`;
}
