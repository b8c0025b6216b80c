// Calibration of the analysis's judgement: games of weak players (random
// play, levels 1 and 2) against level 8, and level 8 against itself for
// contrast, each analysed as the server does (depth 8, endgame proofs on).
// Per game: the final score from the weaker side's view, then for each side
// its inaccuracies / mistakes / blunders and accuracy, and in brackets the
// same by the win chance alone (the judgement before points counted).
//   pnpm --filter @oanquan/engine bench:analysis
// CALIBRATION_GAMES (default 6) games per pairing, the weaker side moving
// first in one, second in the next; CALIBRATION_DEPTH (default 8).

import { calibrationGame, mistakes, PAIRINGS, type SideFigures } from './calibration-games.js';

const GAMES = Number(process.env.CALIBRATION_GAMES ?? 6);
const DEPTH = Number(process.env.CALIBRATION_DEPTH ?? 8);

const show = (f: SideFigures) =>
  `${f.flaws.join('/')} ${f.accuracy.toFixed(0).padStart(3)} %  (by chance ${f.chanceFlaws.join('/')} ${f.chanceAccuracy.toFixed(0).padStart(3)} %)`;

console.log(`analysis at depth ${DEPTH}; flaws are inaccuracies/mistakes/blunders`);
console.log('weaker    seat  score   weaker side: flaws accuracy                    level 8: flaws accuracy');
const summary: string[] = [];
for (const [index, pairing] of PAIRINGS.entries()) {
  let found = 0;
  let foundByChance = 0;
  let accuracy = 0;
  let accuracyByChance = 0;
  for (let g = 0; g < GAMES; g++) {
    const game = calibrationGame(index, pairing, g, DEPTH);
    console.log(`${pairing.name.padEnd(9)} ${String(game.seat).padStart(4)}  ${game.score.join('–').padEnd(6)}  ${show(game.weak)}   ${show(game.strong)}`);
    found += mistakes(game.weak);
    foundByChance += game.weak.chanceFlaws[1] + game.weak.chanceFlaws[2];
    accuracy += game.weak.accuracy;
    accuracyByChance += game.weak.chanceAccuracy;
  }
  const per = (n: number, digits: number) => (n / GAMES).toFixed(digits);
  summary.push(`${pairing.name.padEnd(9)} ${per(found, 1).padStart(5)}  ${per(accuracy, 0).padStart(3)} %   (${per(foundByChance, 1)}, ${per(accuracyByChance, 0)} %)`);
}
console.log('\nper game, the weaker side: mistakes + blunders, accuracy (by the win chance alone in brackets)');
for (const line of summary) console.log(line);
