import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { MemoryCounters } from '../limits/counters.js';
import { ExportLimits } from './export-limits.js';

describe('the limits on downloads of one’s data', () => {
  const limits = () => new ExportLimits(new MemoryCounters(), { perPlayer: 2, perAddress: 10, windowMs: 3_600_000, atOnce: 1 });

  it('refuses a download beyond those running at once as BUSY, without spending the budget', async () => {
    const exports = limits();
    const running = await exports.admit('p1', '127.0.0.1');
    await expect(exports.admit('p2', '127.0.0.1')).rejects.toMatchObject({ code: ErrorCode.Busy, status: 503 });
    running.release();
    running.release();
    await exports.admit('p2', '127.0.0.1');
    await expect(exports.admit('p3', '127.0.0.1')).rejects.toMatchObject({ code: ErrorCode.Busy });
  });

  it('gives the place back when a budget refuses', async () => {
    const exports = limits();
    (await exports.admit('p1', '127.0.0.1')).release();
    (await exports.admit('p1', '127.0.0.1')).release();
    await expect(exports.admit('p1', '127.0.0.1')).rejects.toMatchObject({ code: ErrorCode.RateLimited, status: 429 });
    (await exports.admit('p2', '127.0.0.1')).release();
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    const exports = new ExportLimits(new MemoryCounters(), { perPlayer: 10, perAddress: 1, windowMs: 3_600_000, atOnce: 5 });
    await exports.admit('p1', '192.0.2.1');
    await expect(exports.admit('p2', '::ffff:192.0.2.1')).rejects.toMatchObject({ code: ErrorCode.RateLimited });
  });
});
