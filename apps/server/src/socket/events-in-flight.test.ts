import { describe, expect, it } from 'vitest';
import { EventsInFlight } from './events-in-flight.js';

describe('events in flight', () => {
  it('closes at once with nothing in flight', async () => {
    await expect(new EventsInFlight().close()).resolves.toBeUndefined();
  });

  it('closes once every event taken before is done, and takes none after', async () => {
    const events = new EventsInFlight();
    expect(events.take()).toBe(true);
    expect(events.take()).toBe(true);
    let closed = false;
    const closing = events.close().then(() => (closed = true));
    expect(events.take()).toBe(false);
    events.done();
    await Promise.resolve();
    expect(closed).toBe(false);
    events.done();
    await closing;
    expect(closed).toBe(true);
  });
});
