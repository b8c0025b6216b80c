/** How fast sowing is shown; `instant` shows only where the stones come to rest. */
export const SPEEDS = ['slow', 'normal', 'fast', 'instant'] as const;
export type Speed = (typeof SPEEDS)[number];

const SPEED_KEY = 'oanquan.speed';
const FACTOR: Readonly<Record<Speed, number>> = { slow: 1.8, normal: 1, fast: 0.45, instant: 0 };

function isSpeed(value: unknown): value is Speed {
  return (SPEEDS as readonly unknown[]).includes(value);
}

/**
 * Player preferences kept in this browser. Reduced motion (the system
 * setting) always wins over the speed: nothing is animated then.
 */
export class Settings {
  speed = $state<Speed>('normal');
  reducedMotion = $state(false);

  constructor() {
    if (typeof window === 'undefined') return;
    try {
      const stored = localStorage.getItem(SPEED_KEY);
      if (isSpeed(stored)) this.speed = stored;
    } catch {
      // Without storage the default speed is used.
    }
    const query = window.matchMedia?.('(prefers-reduced-motion: reduce)');
    if (query) {
      this.reducedMotion = query.matches;
      query.addEventListener('change', (event) => (this.reducedMotion = event.matches));
    }
  }

  setSpeed(speed: Speed): void {
    this.speed = speed;
    try {
      localStorage.setItem(SPEED_KEY, speed);
    } catch {
      // Kept for this page only.
    }
  }

  /** Multiplier of every animation duration; 0 means no animation. */
  get motionFactor(): number {
    return this.reducedMotion ? 0 : FACTOR[this.speed];
  }
}

let shared: Settings | undefined;

export function settings(): Settings {
  shared ??= new Settings();
  return shared;
}
