const SOUND_KEY = 'oanquan.sound';

/** Whether the game makes sounds, kept in this browser; on unless turned off. */
export class SoundSetting {
  on = $state(true);

  constructor() {
    if (typeof window === 'undefined') return;
    try {
      this.on = localStorage.getItem(SOUND_KEY) !== 'off';
    } catch {
      // Without storage sounds stay on.
    }
  }

  set(on: boolean): void {
    this.on = on;
    try {
      localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
    } catch {
      // Kept for this page only.
    }
  }
}

let shared: SoundSetting | undefined;

export function soundSetting(): SoundSetting {
  shared ??= new SoundSetting();
  return shared;
}
