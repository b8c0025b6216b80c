import type { MatchEventEnvelope } from '@oanquan/protocol';

/**
 * Puts envelopes back in version order. `accept` gives the ones that can be
 * applied now (consecutive from the current version); a later one is held
 * until the gap is filled, and `gap` says whether the caller should ask the
 * server for what is missing.
 */
export class EnvelopeBuffer {
  private readonly held = new Map<number, MatchEventEnvelope>();

  accept(current: number, envelope: MatchEventEnvelope): { ready: MatchEventEnvelope[]; gap: boolean } {
    if (envelope.version > current) this.held.set(envelope.version, envelope);
    return this.drain(current);
  }

  drain(current: number): { ready: MatchEventEnvelope[]; gap: boolean } {
    const ready: MatchEventEnvelope[] = [];
    for (let next = current + 1; this.held.has(next); next++) {
      ready.push(this.held.get(next)!);
      this.held.delete(next);
    }
    const reached = current + ready.length;
    for (const version of this.held.keys()) if (version <= reached) this.held.delete(version);
    return { ready, gap: this.held.size > 0 };
  }

  clear(): void {
    this.held.clear();
  }
}
