/** A `now` that moves on every `ms` while started; for clocks and countdowns. */
export class Ticker {
  now = $state(Date.now());

  constructor(private readonly ms = 200) {}

  /** Starts ticking; returns the function that stops (fits an $effect). */
  start(): () => void {
    this.now = Date.now();
    const timer = setInterval(() => (this.now = Date.now()), this.ms);
    return () => clearInterval(timer);
  }
}
