export type SoundKind = 'drop' | 'capture' | 'quan' | 'turn' | 'low-time' | 'end';

/** One tone: from `hz` (gliding to `to`), starting `at` s after the cue, lasting `s`, at peak `gain`. */
interface Tone {
  hz: number;
  to?: number;
  at: number;
  s: number;
  gain: number;
  wave: OscillatorType;
}

/**
 * Every sound is made here from a few oscillator notes rather than from
 * files: nothing to download, a few hundred bytes of code. A dropped dân is
 * a soft tick, as it is heard many times a move.
 */
const TONES: Readonly<Record<SoundKind, readonly Tone[]>> = {
  drop: [{ hz: 880, to: 620, at: 0, s: 0.05, gain: 0.05, wave: 'sine' }],
  capture: [
    { hz: 520, at: 0, s: 0.09, gain: 0.12, wave: 'triangle' },
    { hz: 780, at: 0.07, s: 0.12, gain: 0.12, wave: 'triangle' },
  ],
  quan: [
    { hz: 262, at: 0, s: 0.35, gain: 0.16, wave: 'triangle' },
    { hz: 392, at: 0.08, s: 0.35, gain: 0.12, wave: 'triangle' },
    { hz: 523, at: 0.16, s: 0.4, gain: 0.1, wave: 'sine' },
  ],
  turn: [
    { hz: 660, at: 0, s: 0.08, gain: 0.1, wave: 'sine' },
    { hz: 990, at: 0.1, s: 0.1, gain: 0.1, wave: 'sine' },
  ],
  'low-time': [
    { hz: 440, at: 0, s: 0.07, gain: 0.06, wave: 'square' },
    { hz: 440, at: 0.15, s: 0.07, gain: 0.06, wave: 'square' },
  ],
  end: [
    { hz: 523, at: 0, s: 0.18, gain: 0.12, wave: 'triangle' },
    { hz: 659, at: 0.16, s: 0.18, gain: 0.12, wave: 'triangle' },
    { hz: 784, at: 0.32, s: 0.3, gain: 0.12, wave: 'triangle' },
  ],
};

export function synthesize(context: AudioContext, kind: SoundKind): void {
  const start = context.currentTime;
  for (const tone of TONES[kind]) {
    const oscillator = context.createOscillator();
    const envelope = context.createGain();
    const from = start + tone.at;
    oscillator.type = tone.wave;
    oscillator.frequency.setValueAtTime(tone.hz, from);
    if (tone.to) oscillator.frequency.exponentialRampToValueAtTime(tone.to, from + tone.s);
    // A quick rise and an exponential fall: no click at either end.
    envelope.gain.setValueAtTime(0.0001, from);
    envelope.gain.exponentialRampToValueAtTime(tone.gain, from + 0.008);
    envelope.gain.exponentialRampToValueAtTime(0.0001, from + tone.s);
    oscillator.connect(envelope).connect(context.destination);
    oscillator.start(from);
    oscillator.stop(from + tone.s + 0.02);
  }
}
