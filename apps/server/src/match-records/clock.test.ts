import { describe, expect, it } from 'vitest';
import { afterMove, clocksOnWire, remainingAt, startClocks, stopClocks } from './clock.js';

const settings = { initialMs: 180_000, incrementMs: 2_000 };
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('the match clock', () => {
  it('sets both clocks at the initial time with none running before the first move', () => {
    const row = startClocks(settings)!;
    expect(row).toEqual({ clock0Ms: 180_000, clock1Ms: 180_000, turnStartedAt: null, clockDeadline: null });
    expect(remainingAt(row, 0, 0, at(25_000))).toBe(180_000);
    expect(clocksOnWire(row, settings, 0, at(25_000))).toEqual({ remainingMs: [180_000, 180_000], running: null, asOf: at(25_000).toISOString() });
    expect(startClocks({ initialMs: null, incrementMs: null })).toBeNull();
  });

  it("does not charge the first move's thinking time: the mover gets the increment and the other clock starts", () => {
    const { update, moverRemainingMs } = afterMove(startClocks(settings)!, settings, 0, at(25_000));
    expect(moverRemainingMs).toBe(182_000);
    expect(update).toEqual({ clock0Ms: 182_000, clock1Ms: 180_000, turnStartedAt: at(25_000), clockDeadline: at(205_000) });
  });

  it("takes the thinking time from the mover's clock, adds the increment, and starts the other", () => {
    const row = { clock0Ms: 180_000, clock1Ms: 180_000, turnStartedAt: at(0) };
    expect(remainingAt(row, 0, 0, at(5_000))).toBe(175_000);
    expect(remainingAt(row, 1, 0, at(5_000))).toBe(180_000);
    const { update, moverRemainingMs } = afterMove(row, settings, 0, at(5_000));
    expect(moverRemainingMs).toBe(177_000);
    expect(update).toEqual({ clock0Ms: 177_000, clock1Ms: 180_000, turnStartedAt: at(5_000), clockDeadline: at(185_000) });
    expect(clocksOnWire(update, settings, 1, at(6_000))).toEqual({ remainingMs: [177_000, 179_000], running: 1, asOf: at(6_000).toISOString() });
  });

  it("charges the mover up to the move's arrival and starts the other clock when the move is applied", () => {
    const row = { clock0Ms: 180_000, clock1Ms: 180_000, turnStartedAt: at(0) };
    const { update, moverRemainingMs } = afterMove(row, settings, 0, at(5_000), at(9_000));
    expect(moverRemainingMs).toBe(177_000);
    expect(update).toEqual({ clock0Ms: 177_000, clock1Ms: 180_000, turnStartedAt: at(9_000), clockDeadline: at(189_000) });
  });

  it('stops at zero for the player whose time ran out', () => {
    const row = { clock0Ms: 180_000, clock1Ms: 180_000, turnStartedAt: at(0) };
    expect(stopClocks(row, 0, at(200_000))).toEqual({ clock0Ms: 0, clock1Ms: 180_000, turnStartedAt: null, clockDeadline: null });
  });
});

describe('the sowing allowance on the clock', () => {
  it('starts the other clock after the allowance: it stands until then, and the deadline includes it', () => {
    const row = { clock0Ms: 180_000, clock1Ms: 180_000, turnStartedAt: at(0) };
    const { update } = afterMove(row, settings, 0, at(5_000), at(8_000));
    expect(update.clockDeadline).toEqual(at(188_000));
    expect(remainingAt(update, 1, 1, at(6_000))).toBe(180_000);
    expect(remainingAt(update, 1, 1, at(9_000))).toBe(179_000);
    expect(clocksOnWire(update, settings, 1, at(6_000))).toEqual({ remainingMs: [177_000, 180_000], running: 1, asOf: at(6_000).toISOString(), startsAt: at(8_000).toISOString() });
    expect(clocksOnWire(update, settings, 1, at(9_000))).toEqual({ remainingMs: [177_000, 179_000], running: 1, asOf: at(9_000).toISOString() });
  });

  it('charges nothing for an answer within the allowance, and credits nothing for it either', () => {
    const row = { clock0Ms: 177_000, clock1Ms: 180_000, turnStartedAt: at(8_000) };
    const { moverRemainingMs } = afterMove(row, settings, 1, at(6_500), at(7_000));
    expect(moverRemainingMs).toBe(182_000);
  });
});
