// See https://svelte.dev/docs/kit/types#app.d.ts
import type { Lang } from '@oanquan/protocol';

declare global {
  namespace App {
    interface Locals {
      lang: Lang;
    }
  }
}

export {};
