import { DEFAULT_RULES } from '@oanquan/rules';
import { enginePlayer, pairedMatch } from './match.js';
const pairs = Number(process.env.PAIRS ?? 10);
let exactMoves = 0;
const s = pairedMatch(DEFAULT_RULES, enginePlayer({ level: 8 }), enginePlayer({ level: 8, exactEndgames: false }), pairs, 8);
console.log(`level 8 with exact endgames vs without, equal node budget: +${s.wins} =${s.draws} -${s.losses} over ${s.games}, score ${(100 * s.score).toFixed(1)} %, mean margin ${s.meanMargin.toFixed(2)}`);
