export type NoticeKind = 'error' | 'info';

export interface Notice {
  readonly id: number;
  readonly kind: NoticeKind;
  readonly text: string;
}

const SHOWN_MS = { error: 8000, info: 4000 } as const;

/** Short messages shown over the page: every rejection and lost connection ends up here or in a banner. */
export class Notices {
  list = $state.raw<readonly Notice[]>([]);
  private nextId = 1;

  show(text: string, kind: NoticeKind = 'error'): void {
    const id = this.nextId++;
    // The same text twice in a row is shown once, for longer.
    const rest = this.list.filter((notice) => notice.text !== text);
    this.list = [...rest.slice(-3), { id, kind, text }];
    setTimeout(() => this.dismiss(id), SHOWN_MS[kind]);
  }

  dismiss(id: number): void {
    this.list = this.list.filter((notice) => notice.id !== id);
  }
}

let shared: Notices | undefined;

export function notices(): Notices {
  shared ??= new Notices();
  return shared;
}
