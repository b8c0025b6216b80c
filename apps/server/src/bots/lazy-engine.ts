import { EnginePool, type EnginePoolOptions } from '@oanquan/engine';

/**
 * An engine pool started on first use: most processes (and most tests) never
 * search, and each worker takes seconds to start, so none is started before
 * a game against the computer or an analysis needs one.
 */
export class LazyEngine {
  private pool: EnginePool | undefined;

  constructor(private readonly options: EnginePoolOptions) {}

  get = (): EnginePool => (this.pool ??= new EnginePool(this.options));

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
