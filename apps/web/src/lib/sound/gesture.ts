let touched = false;

/**
 * Browsers let a page make sound only after the person has touched it, and
 * no sound is played before then, not even silently. Listened for from the
 * first page on (the root layout), so a tap that led to a room counts.
 */
export function listenForGesture(): void {
  const wake = () => {
    touched = true;
    window.removeEventListener('pointerdown', wake, true);
    window.removeEventListener('keydown', wake, true);
  };
  window.addEventListener('pointerdown', wake, true);
  window.addEventListener('keydown', wake, true);
}

export function hasBeenTouched(): boolean {
  return touched;
}
