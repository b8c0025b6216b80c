/** How fast sowing is shown; `instant` shows only where the stones come to rest. */
export const SPEEDS = ['slow', 'normal', 'fast', 'instant'] as const;
export type Speed = (typeof SPEEDS)[number];

/** When the board foresees a chosen move (where it ends, what it takes); `auto`: in unrated games only. */
export const PREVIEW_MODES = ['auto', 'always', 'never'] as const;
export type PreviewMode = (typeof PREVIEW_MODES)[number];

const SPEED_KEY = 'oanquan.speed';
const PREVIEW_KEY = 'oanquan.preview';
const FACTOR: Readonly<Record<Speed, number>> = { slow: 1.8, normal: 1, fast: 0.45, instant: 0 };

function isSpeed(value: unknown): value is Speed {
  return (SPEEDS as readonly unknown[]).includes(value);
}

function isPreviewMode(value: unknown): value is PreviewMode {
  return (PREVIEW_MODES as readonly unknown[]).includes(value);
}

/**
 * Player preferences kept in this browser. Until a speed is chosen, the
 * system's reduced-motion setting makes sowing instant; a chosen speed wins.
 */
export class Settings {
  /** The speed this browser chose, or null to follow the system. */
  chosenSpeed = $state<Speed | null>(null);
  reducedMotion = $state(false);
  preview = $state<PreviewMode>('auto');

  constructor() {
    if (typeof window === 'undefined') return;
    try {
      const stored = localStorage.getItem(SPEED_KEY);
      if (isSpeed(stored)) this.chosenSpeed = stored;
      const preview = localStorage.getItem(PREVIEW_KEY);
      if (isPreviewMode(preview)) this.preview = preview;
    } catch {
      // Without storage the default speed is used.
    }
    const query = window.matchMedia?.('(prefers-reduced-motion: reduce)');
    if (query) {
      this.reducedMotion = query.matches;
      query.addEventListener('change', (event) => (this.reducedMotion = event.matches));
    }
  }

  get speed(): Speed {
    return this.chosenSpeed ?? (this.reducedMotion ? 'instant' : 'normal');
  }

  setSpeed(speed: Speed): void {
    this.chosenSpeed = speed;
    try {
      localStorage.setItem(SPEED_KEY, speed);
    } catch {
      // Kept for this page only.
    }
  }

  setPreview(mode: PreviewMode): void {
    this.preview = mode;
    try {
      localStorage.setItem(PREVIEW_KEY, mode);
    } catch {
      // Kept for this page only.
    }
  }

  /** Whether moves are foreseen in a game; `rated` is null while unknown. */
  previewIn(rated: boolean | null): boolean {
    return this.preview === 'always' || (this.preview === 'auto' && rated === false);
  }

  /** Multiplier of every animation duration; 0 means no animation. */
  get motionFactor(): number {
    return FACTOR[this.speed];
  }
}

let shared: Settings | undefined;

export function settings(): Settings {
  shared ??= new Settings();
  return shared;
}
