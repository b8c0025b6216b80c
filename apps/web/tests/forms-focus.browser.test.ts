import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';
import { openRoom } from './support/room-flow.js';

const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true } as const;

/** Whether the whole element lies inside the visible part of the page. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => {
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

/** The refusal of a form is shown in view, announced, tied to its field, and the focus is on that field. */
async function expectFieldError(page: Page, form: string, field: string, text: string): Promise<void> {
  const error = page.locator(`[data-form-error="${form}"]`);
  await error.waitFor();
  expect(await error.textContent()).toBe(text);
  expect(await error.getAttribute('role')).toBe('alert');
  expect(await inView(page, `[data-form-error="${form}"]`)).toBe(true);
  expect(await focused(page)).toBe(field);
  expect(await page.getAttribute(`#${field}`, 'aria-invalid')).toBe('true');
  expect(await page.getAttribute(`#${field}`, 'aria-describedby')).toBe(await error.getAttribute('id'));
}

/** The server's first answer to the page socket's connect, whichever transport carried it: "40…" accepted, "44…" refused. */
function firstSocketAnswer(page: Page): Promise<string> {
  return new Promise((resolve) => {
    // Engine.IO 4 joins the packets of one polling response with a record separator.
    const look = (text: string) => {
      const answer = text.split('\x1e').find((packet) => packet.startsWith('40') || packet.startsWith('44'));
      if (answer !== undefined) resolve(answer);
    };
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/socket.io/')) response.text().then(look, () => undefined);
    });
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => look(String(payload))));
  });
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('id') ?? document.activeElement?.getAttribute('data-hand') ?? document.activeElement?.tagName);

describe('forms, focus and refusals in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a 320 × 640 phone, a wrong password is shown beside the field, announced, and the focus stays on it', { timeout: 90_000 }, async () => {
    const owner = await newPlayer(harness.browser);
    await owner.page.goto(harness.server.url);
    await owner.page.waitForSelector('[data-me] [data-my-name]');
    await keepAccount(owner.page, 'focus_owner');

    const visitor = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    await visitor.page.goto(`${harness.server.url}/account`);
    await visitor.page.fill('[data-sign-in-username]', 'focus_owner');
    await visitor.page.fill('[data-sign-in-password]', 'not the password');
    await visitor.page.press('[data-sign-in-password]', 'Enter');
    await expectFieldError(visitor.page, 'sign-in', 'sign-in-password', 'Sai tên đăng nhập hoặc mật khẩu.');

    // Typing the right one over the selected wrong one signs in; the confirmation takes the focus, the error is gone.
    await visitor.page.keyboard.type('correct horse battery');
    await visitor.page.keyboard.press('Enter');
    await visitor.page.waitForSelector('[data-signed-in-as]');
    expect(await visitor.page.locator('[data-form-error]').count()).toBe(0);
    expect(await visitor.page.evaluate(() => document.activeElement?.hasAttribute('data-account-outcome'))).toBe(true);
    expect([...owner.errors, ...visitor.errors]).toEqual([]);
    await Promise.all([owner.context.close(), visitor.context.close()]);
  });

  it('on a 320 × 640 phone, a refused new name is shown under the field, announced, and the focus stays on it', { timeout: 90_000 }, async () => {
    const me = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    await me.page.goto(harness.server.url);
    const before = await me.page.locator('[data-me] [data-my-name]').textContent();
    await me.page.click('[data-rename]');
    // A zero-width space: the browser lets it through, the server refuses it.
    await me.page.fill('[data-name-input]', 'Tên\u200Bẩn');
    await me.page.click('[data-name-save]');
    await expectFieldError(me.page, 'rename', 'me-name', 'Tên không được có ký tự vô hình hay khoảng trắng lạ, và không được trông như để trống.');

    // Typing a good name over the selected refused one renames; the error is gone.
    await me.page.keyboard.type('Trâu Vàng');
    await me.page.keyboard.press('Enter');
    await me.page.waitForSelector('[data-me] [data-my-name]:text-is("Trâu Vàng")');
    expect(before).not.toBe('Trâu Vàng');
    expect(await me.page.locator('[data-form-error]').count()).toBe(0);
    expect(me.errors).toEqual([]);
    await me.context.close();
  });

  it('keeps the focus in rock–paper–scissors: on the wait after a choice, and on the hand shown after a tie', { timeout: 90_000 }, async () => {
    const a = await newPlayer(harness.browser, phone);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await a.page.focus('[data-hand="paper"]');
    await a.page.keyboard.press('Enter');
    await a.page.waitForSelector('[data-opener-wait]');
    expect(await a.page.evaluate(() => document.activeElement?.hasAttribute('data-opener-wait'))).toBe(true);
    await b.page.click('[data-hand="paper"]');
    // A tie: the hands are back, and the keyboard is on the one A showed, with no Tab needed.
    await a.page.waitForSelector('[data-opener] [data-hand="paper"]');
    expect(await focused(a.page)).toBe('paper');
    await a.page.keyboard.press('Enter');
    await a.page.waitForSelector('[data-opener-wait]');
    expect(await b.page.textContent('[data-opener]')).toContain('has chosen');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});

describe('a refusal in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ RATE_LIMIT_GUESTS_PER_HOUR: '1' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('tells a visitor behind a busy shared address when to come back, as the server said, in their language', { timeout: 90_000 }, async () => {
    const first = await newPlayer(harness.browser);
    await first.page.goto(`${harness.server.url}/account`);
    await first.page.waitForSelector('[data-keep-form]');
    const second = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    await second.page.goto(`${harness.server.url}/account`);
    await second.page.waitForSelector('text=/hãy thử lại sau 60 phút/');
    expect(await second.page.textContent('[data-account]')).not.toContain('Thao tác quá nhanh');
    await Promise.all([first.context.close(), second.context.close()]);
  });
});

describe('a first visit in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('asks nothing the server must refuse: no session yet, so no "who am I" before the new guest', { timeout: 60_000 }, async () => {
    const visitor = await newPlayer(harness.browser);
    const refused: string[] = [];
    const asked: string[] = [];
    visitor.page.on('console', (message) => {
      // The reload may cut the socket's long-polling request in two, and the server then refuses
      // the half that outlived its session: transport, not a question the page asked.
      if (message.type() === 'error' && !new URL(message.location().url || 'http://x/').pathname.startsWith('/socket.io/')) refused.push(message.text());
    });
    visitor.page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/api/')) asked.push(`${response.request().method()} ${pathname} ${response.status()}`);
    });
    const socketAnswer = firstSocketAnswer(visitor.page);
    await visitor.page.goto(harness.server.url);
    await visitor.page.waitForSelector('[data-me] [data-my-name]');
    expect(asked).toContain('POST /api/session 201');
    expect(asked.filter((line) => / 4\d\d$/.test(line))).toEqual([]);
    // The socket opens with the new session's cookie: not refused, so the page does not renew the session and ask
    // who it names (a renewal took the player off the page for a moment, and with it a rename being typed).
    expect(await socketAnswer).toMatch(/^40\{"sid"/);
    expect(asked.filter((line) => line.startsWith('GET /api/me'))).toEqual([]);
    // The next visit has the cookie, and asks.
    await visitor.page.reload();
    await visitor.page.waitForSelector('[data-me] [data-my-name]');
    expect(asked).toContain('GET /api/me 200');
    expect(asked.filter((line) => / 4\d\d$/.test(line))).toEqual([]);
    expect(refused).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});

describe('a refused room in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ RATE_LIMIT_ROOMS_PER_MINUTE: '1' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a 320 × 640 phone, shows the refusal beside the button, announced and tied to it, and keeps the focus on it', { timeout: 90_000 }, async () => {
    const me = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    await me.page.goto(harness.server.url);
    await me.page.waitForSelector('[data-me] [data-my-name]');
    await me.page.click('[data-create]');
    await me.page.waitForURL(/\/r\/[A-Za-z0-9]+$/);

    // The second room within the minute is one too many.
    await me.page.goto(harness.server.url);
    await me.page.waitForSelector('[data-me] [data-my-name]');
    await me.page.click('[data-create]');
    const error = me.page.locator('[data-form-error="create"]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^Có quá nhiều lượt từ bạn hoặc mạng của bạn; hãy thử lại sau \S/);
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await inView(me.page, '[data-form-error="create"]')).toBe(true);
    expect(await me.page.evaluate(() => document.activeElement?.hasAttribute('data-create'))).toBe(true);
    expect(await me.page.getAttribute('[data-create]', 'aria-describedby')).toBe(await error.getAttribute('id'));
    expect(await me.page.getAttribute('[data-create]', 'aria-disabled')).toBe('false');
    await me.context.close();
  });
});
