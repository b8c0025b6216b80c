import { describe, expect, it } from 'vitest';
import { followMove, type MatchRecord } from '@oanquan/protocol';
import { DEFAULT_RULES, legalMoves, newGame, parseRecord, type State } from '@oanquan/rules';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { moveName } from '../match/move-name.js';
import { recordFile } from './record-file.js';

const say = (dictionary: typeof en | typeof vi) => (key: keyof typeof en, params?: Record<string, string | number>) => interpolate(dictionary[key], params);

/** Six plies, then a resignation: a person against the computer at level 8. */
function resignedMatch(): MatchRecord {
  let state: State = newGame({ rules: DEFAULT_RULES, first: 0 });
  const moves: MatchRecord['moves'] = [];
  for (let i = 0; i < 6; i++) {
    const legal = legalMoves(state);
    const followed = followMove(state, { ...legal[(i * 7) % legal.length]!, clocks: null })!;
    moves.push({ ...followed.move, at: '2026-12-01T10:00:00.000Z', clockStartsAt: null });
    state = followed.state;
  }
  return {
    id: '8d1e7c2a-5b4f-4e3d-9a1b-2c3d4e5f6a7b',
    roomCode: 'abcdef',
    number: 1,
    status: 'ended',
    rules: DEFAULT_RULES,
    timeControl: { initialSeconds: 300, incrementSeconds: 5 },
    rated: false,
    players: [
      { id: '1d1e7c2a-5b4f-4e3d-9a1b-2c3d4e5f6a7b', name: 'Mèo 527', botLevel: null },
      { id: '2d1e7c2a-5b4f-4e3d-9a1b-2c3d4e5f6a7b', name: 'Computer (level 8)', botLevel: 8 },
    ],
    first: 0,
    opener: [],
    moves,
    result: { reason: 'resign', winner: 1, score: null },
    ratings: null,
    createdAt: '2026-12-01T09:59:00.000Z',
    startedAt: '2026-12-01T10:00:00.000Z',
    endedAt: '2026-12-01T10:05:00.000Z',
  };
}

describe('the record a reader downloads', () => {
  const match = resignedMatch();

  it('numbers every ply and names each move as the game log does, and reads back as the same game', () => {
    const { name, text } = recordFile(match, say(vi), 'https://oanquan.example');
    expect(name).toBe('oanquan-8d1e7c2a.txt');
    const body = text.trimEnd().split('\n\n')[1]!;
    expect(body).toBe(match.moves.map((move) => `${move.ply}. ${moveName(move)}`).join(' '));
    const parsed = parseRecord(text);
    expect(parsed.ok && parsed.record.moves).toEqual(match.moves.map(({ square, dir }) => ({ square, dir })));
    expect(parsed.ok && parsed.record.termination).toEqual({ reason: 'resign', winner: 1 });
  });

  it('names the players and the ending in the reader\'s language', () => {
    const vietnamese = recordFile(match, say(vi), 'https://oanquan.example').text;
    expect(vietnamese).toContain('[Player0 "Mèo 527"]\n[Player1 "Máy (cấp 8)"]\n');
    expect(vietnamese).toContain('[Ending "Mèo 527 xin thua; Máy (cấp 8) thắng."]');
    expect(vietnamese).toContain('[Site "https://oanquan.example/m/8d1e7c2a-5b4f-4e3d-9a1b-2c3d4e5f6a7b"]');
    const english = recordFile(match, say(en), 'https://oanquan.example').text;
    expect(english).toContain('[Player1 "Computer (level 8)"]');
    expect(english).toContain('[Ending "Mèo 527 resigned; Computer (level 8) wins."]');
    expect(parseRecord(english).ok).toBe(true);
  });
});
