import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core, the accessibility checker, run inside the page as its own script (the page's policy does not apply to what the test injects). */
export const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Finding {
  id: string;
  impact: string | null;
  targets: string[];
}

/** What axe finds serious or critical on the page as it is now. */
export async function seriousFindings(page: Page): Promise<Finding[]> {
  return page.evaluate(async () => {
    const { violations } = await (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact ?? null, targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')) }));
  });
}
