import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page, type Route } from '@playwright/test';
import { createTenant, type TenantApi } from './support/tenant';
import { useSilentMediaServer } from './support/silent-media';

/**
 * The in-call panels (polls, Q&A, host controls, people) in a real browser, in a real call on the
 * development media server, with the participant-token API answered by page.route: what is
 * asserted is the browser's side — requests with the Bearer token, rendering, toggles, keyboard
 * and the narrow layout. (A media server that never answers would keep the call "connecting" for
 * livekit-client's 5 s join timeout only, less than a loaded machine takes to run axe.) The same
 * panels with the real API and live updates over the data channel are in e2e/meeting.spec.ts.
 */
let tenant: TenantApi;
const silentMedia = useSilentMediaServer();

test.beforeAll(async () => {
  tenant = await createTenant('Engagement');
});

interface Join {
  joinUrl: string;
  token: string;
}

/** Ada's join to a new room "Town hall", from the tenant API. */
async function adaJoins(role = 'ATTENDEE'): Promise<Join> {
  const roomId = await tenant.room({ name: 'Town hall' });
  const res = await tenant.api('POST', `/api/v1/rooms/${roomId}/join`, {
    externalUserId: 'u_ada',
    displayName: 'Ada Lovelace',
    role,
  });
  expect(res.status).toBe(200);
  return res.body as Join;
}

const poll = (over: Record<string, unknown> = {}) => ({
  id: 'poll_1',
  roomId: 'room_1',
  question: 'Where do we meet next?',
  status: 'OPEN',
  isAnonymous: false,
  allowMultiple: false,
  totalVotes: 1,
  options: [
    { id: 'opt_a', text: 'Berlin', order: 0, count: 1 },
    { id: 'opt_b', text: 'Lisbon', order: 1, count: 0 },
  ],
  votes: [{ optionId: 'opt_a', voterExternalId: 'u_bob' }],
  createdByExternalId: 'u_host',
  createdAt: '2026-01-01T10:00:00.000Z',
  openedAt: '2026-01-01T10:00:00.000Z',
  closedAt: null,
  ...over,
});
const question = (over: Record<string, unknown> = {}) => ({
  id: 'q_1',
  roomId: 'room_1',
  text: 'Will the slides be shared?',
  status: 'OPEN',
  askerExternalId: 'u_bob',
  askerName: 'Bob',
  upvoteCount: 2,
  answerText: null,
  answeredByExternalId: null,
  answeredAt: null,
  dismissedByExternalId: null,
  dismissedAt: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  ...over,
});

interface Seen {
  method: string;
  path: string;
  auth: string;
  body: unknown;
}

/** Answers the participant-token API the panels use (a small in-memory room), and records what the page sent. */
async function fakeApi(page: Page, opts: { isModerator: boolean }) {
  const seen: Seen[] = [];
  const polls = [poll()];
  const questions = [question()];
  const json = (route: Route, body: unknown, status = 200) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route('**/api/v1/**', async (route) => {
    const req = route.request();
    const path = new URL(req.url()).pathname.replace('/api/v1', '');
    const body = req.postData() ? JSON.parse(req.postData()!) : undefined;
    seen.push({ method: req.method(), path, auth: req.headers().authorization ?? '', body });
    const key = `${req.method()} ${path}`;
    if (key === 'GET /me')
      return json(route, {
        participant: {
          externalUserId: 'u_ada',
          displayName: 'Ada Lovelace',
          role: opts.isModerator ? 'HOST' : 'ATTENDEE',
        },
        room: { isLocked: false },
        isModerator: opts.isModerator,
      });
    if (key === 'GET /me/waiting')
      return opts.isModerator
        ? json(route, { data: [{ id: 'part_9', displayName: 'Grace' }], nextCursor: null })
        : json(route, { error: { code: 'FORBIDDEN', message: 'no' } }, 403);
    if (key === 'GET /polls/public') return json(route, { data: polls, nextCursor: null });
    if (key === 'POST /polls/public/poll_1/vote') {
      polls[polls.findIndex((p) => p.id === 'poll_1')] = poll({
        totalVotes: 2,
        options: [
          { id: 'opt_a', text: 'Berlin', order: 0, count: 1 },
          { id: 'opt_b', text: 'Lisbon', order: 1, count: 1 },
        ],
        votes: [
          { optionId: 'opt_a', voterExternalId: 'u_bob' },
          { optionId: 'opt_b', voterExternalId: 'u_ada' },
        ],
      });
      return json(
        route,
        polls.find((p) => p.id === 'poll_1'),
      );
    }
    if (key === 'POST /polls/public') {
      const created = poll({
        id: 'poll_2',
        question: body.question,
        status: body.status,
        totalVotes: 0,
        votes: [],
        createdAt: '2026-01-01T11:00:00.000Z',
        options: body.options.map((text: string, order: number) => ({ id: `n${order}`, text, order, count: 0 })),
      });
      polls.unshift(created);
      return json(route, created, 201);
    }
    if (key === 'POST /polls/public/poll_1/close') {
      polls[polls.findIndex((p) => p.id === 'poll_1')] = poll({
        status: 'CLOSED',
        closedAt: '2026-01-01T10:10:00.000Z',
      });
      return json(
        route,
        polls.find((p) => p.id === 'poll_1'),
      );
    }
    if (key === 'GET /questions/public') return json(route, { data: questions, nextCursor: null });
    if (key === 'POST /questions/public') {
      const asked = question({
        id: 'q_2',
        text: body.text,
        askerExternalId: 'u_ada',
        askerName: 'Ada Lovelace',
        upvoteCount: 0,
        createdAt: '2026-01-01T10:05:00.000Z',
      });
      questions.push(asked);
      return json(route, asked, 201);
    }
    if (key === 'POST /questions/public/q_1/upvote') {
      questions[0] = question({ upvoteCount: 3 });
      return json(route, questions[0]);
    }
    if (key === 'POST /questions/public/q_1/answer') {
      if (!opts.isModerator) return json(route, { error: { code: 'FORBIDDEN', message: 'no' } }, 403);
      questions[0] = question({
        status: 'ANSWERED',
        answerText: body?.answerText ?? null,
        answeredByExternalId: 'u_ada',
        answeredAt: '2026-01-01T10:06:00.000Z',
      });
      return json(route, questions[0]);
    }
    if (key === 'POST /questions/public/q_1/dismiss') {
      if (!opts.isModerator) return json(route, { error: { code: 'FORBIDDEN', message: 'no' } }, 403);
      questions[0] = question({
        ...questions[0],
        status: 'DISMISSED',
        dismissedByExternalId: 'u_ada',
        dismissedAt: '2026-01-01T10:07:00.000Z',
      });
      return json(route, questions[0]);
    }
    return json(route, { error: { code: 'NOT_FOUND', message: `unexpected ${key}` } }, 404);
  });
  return seen;
}

/** Joins with the microphone and camera off, as the panels' assertions expect. */
async function joinCall(page: Page, join: Join) {
  await page.goto(join.joinUrl);
  for (const device of ['Microphone', 'Camera']) {
    const toggle = page.getByRole('button', { name: new RegExp(`^${device}`) }).first();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  }
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('group', { name: 'Meeting tools' })).toBeVisible({ timeout: 15_000 });
}

test('an attendee votes in an open poll and asks and upvotes questions, with the participant token', async ({
  page,
}) => {
  const join = await adaJoins();
  const seen = await fakeApi(page, { isModerator: false });
  await joinCall(page, join);

  const tools = page.getByRole('group', { name: 'Meeting tools' });
  const pollsButton = tools.getByRole('button', { name: 'Polls (1 open)' });
  await expect(pollsButton).toHaveAttribute('aria-expanded', 'false');
  await expect(tools.getByRole('button', { name: /Host controls/ })).toHaveCount(0);
  await pollsButton.click();
  await expect(pollsButton).toHaveAttribute('aria-expanded', 'true');
  const panel = page.locator(`#${await pollsButton.getAttribute('aria-controls')}`);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Where do we meet next?' })).toBeVisible();
  await expect(panel.getByText('Berlin: 1 vote (100%)')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Create poll' })).toHaveCount(0);

  await panel.getByRole('radio', { name: 'Lisbon' }).check();
  await panel.getByRole('button', { name: 'Vote' }).click();
  await expect(panel.getByRole('status')).toHaveText('Your vote was counted.');
  await expect(panel.getByText('Lisbon: 1 vote (50%)')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Change vote' })).toBeVisible();
  expect(seen.find((s) => s.path === '/polls/public/poll_1/vote')).toMatchObject({
    method: 'POST',
    body: { optionIds: ['opt_b'] },
  });

  // Escape closes the panel and gives focus back to its button.
  await panel.getByRole('radio', { name: 'Lisbon' }).focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(pollsButton).toBeFocused();

  const qaButton = tools.getByRole('button', { name: 'Q&A (1)' });
  await qaButton.click();
  const qa = page.locator(`#${await qaButton.getAttribute('aria-controls')}`);
  await qa.getByLabel('Your question').fill('Is there a recording?');
  await qa.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(qa.getByText('Is there a recording?')).toBeVisible();
  const upvote = qa.getByRole('button', { name: 'Upvote: Will the slides be shared?' });
  await upvote.click();
  await expect(upvote).toHaveAttribute('aria-pressed', 'true');
  await expect(upvote).toBeDisabled();
  await expect(qa.getByText('3 upvotes')).toBeVisible();
  expect(seen.find((s) => s.method === 'POST' && s.path === '/questions/public')?.body).toEqual({
    text: 'Is there a recording?',
  });
  expect(seen.some((s) => s.path === '/questions/public/q_1/upvote')).toBe(true);
  // Answering and dismissing are for hosts and moderators only.
  await expect(qa.getByRole('button', { name: /^(Mark answered|Dismiss)/ })).toHaveCount(0);
  await expect(qa.getByRole('textbox', { name: /^Answer to:/ })).toHaveCount(0);

  // Every call went out with the participant's own token, and nothing else.
  expect(seen.length).toBeGreaterThan(5);
  expect(seen.filter((s) => s.auth !== `Bearer ${join.token}`)).toEqual([]);
});

test('a host creates, checks and closes polls and sees the host controls', async ({ page }) => {
  const seen = await fakeApi(page, { isModerator: true });
  await joinCall(page, await adaJoins());
  const tools = page.getByRole('group', { name: 'Meeting tools' });
  await expect(tools.getByRole('button', { name: 'Host controls (1 waiting)' })).toBeVisible({ timeout: 10_000 });

  await tools.getByRole('button', { name: /^Polls/ }).click();
  const panel = page.getByRole('region', { name: 'Polls' });
  const form = panel.getByRole('form', { name: 'New poll' });
  await form.getByLabel('Question').fill('Coffee or tea?');
  await form.getByRole('textbox', { name: 'Option 1', exact: true }).fill('Coffee');
  await form.getByRole('button', { name: 'Create poll' }).click();
  await expect(form.getByRole('alert')).toHaveText('Give at least 2 options.');
  await form.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Tea');
  await form.getByRole('button', { name: 'Add option' }).click();
  await form.getByRole('textbox', { name: 'Option 3', exact: true }).fill('Water');
  await form.getByRole('button', { name: 'Create poll' }).click();
  await expect(panel.getByRole('heading', { name: 'Coffee or tea?' })).toBeVisible();
  expect(seen.find((s) => s.method === 'POST' && s.path === '/polls/public')?.body).toEqual({
    question: 'Coffee or tea?',
    options: ['Coffee', 'Tea', 'Water'],
    allowMultiple: false,
    isAnonymous: false,
    status: 'OPEN',
  });

  await panel.getByRole('button', { name: 'Close poll: Where do we meet next?' }).click();
  await expect(panel.getByRole('status')).toHaveText('The poll is closed.');
  await expect(panel.getByRole('article', { name: 'Where do we meet next?' }).getByText('Closed')).toBeVisible();
  await page.screenshot({ path: 'test-results/e2e/polls-host.png' });

  await tools.getByRole('button', { name: /^Host controls/ }).click();
  await expect(panel).toBeHidden();
  const host = page.getByRole('region', { name: 'Host controls' });
  await expect(host.getByRole('button', { name: 'Admit Grace' })).toBeVisible();
});

test('a host marks a question answered with an answer, then dismisses it', async ({ page }) => {
  const seen = await fakeApi(page, { isModerator: true });
  await joinCall(page, await adaJoins());
  const tools = page.getByRole('group', { name: 'Meeting tools' });
  await expect(tools.getByRole('button', { name: 'Host controls (1 waiting)' })).toBeVisible({ timeout: 10_000 });
  await tools.getByRole('button', { name: /^Q&A/ }).click();
  const qa = page.getByRole('region', { name: 'Questions' });
  await expect(qa.getByText('Will the slides be shared?', { exact: true })).toBeVisible();

  await qa
    .getByRole('textbox', { name: 'Answer to: Will the slides be shared? (optional)' })
    .fill('Yes, after the call');
  await qa.getByRole('button', { name: 'Mark answered: Will the slides be shared?' }).click();
  await expect(qa.getByRole('status')).toHaveText('The question is marked answered.');
  await expect(qa.getByText('Yes, after the call')).toBeVisible();
  await expect(qa.getByText('Answered', { exact: true })).toBeVisible();
  await expect(qa.getByRole('button', { name: /^Mark answered/ })).toHaveCount(0);
  expect(seen.find((s) => s.path === '/questions/public/q_1/answer')).toMatchObject({
    method: 'POST',
    body: { answerText: 'Yes, after the call' },
  });
  await page.screenshot({ path: 'test-results/e2e/questions-host.png' });

  await qa.getByRole('button', { name: 'Dismiss: Will the slides be shared?' }).click();
  await expect(qa.getByRole('status')).toHaveText('The question was dismissed.');
  await expect(qa.getByText('Will the slides be shared?', { exact: true })).toHaveCount(0);
  await expect(qa.getByText('No questions yet. Ask the first one.')).toBeVisible();
  expect(seen.find((s) => s.path === '/questions/public/q_1/dismiss')).toMatchObject({ method: 'POST' });
});

test('the people panel lists who is in the call, you first, known from your token until it connects', async ({
  page,
}) => {
  await fakeApi(page, { isModerator: true });
  await joinCall(page, await adaJoins('HOST'));
  await page.getByRole('group', { name: 'Meeting tools' }).getByRole('button', { name: 'People (1)' }).click();
  const panel = page.getByRole('region', { name: 'People' });
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  const me = panel.getByRole('listitem').first();
  await expect(me).toContainText('Ada Lovelace(you)');
  await expect(me).toContainText('Host');
  await expect(me).toContainText('Muted · Camera off');
  const { violations } = await new AxeBuilder({ page })
    .include('section[id="convene-panel-people"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/people.png' });
});

test('at 390 px the panels are a bottom sheet and every control has a name', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await fakeApi(page, { isModerator: true });
  await joinCall(page, await adaJoins());
  const button = page.getByRole('button', { name: /^Polls/ });
  await button.click();
  const panel = page.getByRole('region', { name: 'Polls' });
  await expect(panel.getByRole('heading', { name: 'Where do we meet next?' })).toBeVisible();
  const box = (await panel.boundingBox())!;
  expect(Math.round(box.x)).toBe(0);
  expect(Math.round(box.width)).toBe(390);
  // It ends where the control bar begins (e2e/phone.spec.ts mutes and leaves with it open).
  const bar = (await page.locator('.convene-control-bar').boundingBox())!;
  expect(Math.abs(box.y + box.height - bar.y)).toBeLessThanOrEqual(1);
  const unnamed = await page
    .locator('[role="group"][aria-label="Meeting tools"] button, section[id^="convene-panel-"] button')
    .evaluateAll((els) => els.filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim())).length);
  expect(unnamed).toBe(0);
  // axe on our own in-call UI (the toolbar and the open panel; LiveKit's video grid is theirs).
  const { violations } = await new AxeBuilder({ page })
    .include('[role="group"][aria-label="Meeting tools"]')
    .include('section[id^="convene-panel-"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
  await page.screenshot({ path: 'test-results/e2e/polls-390.png' });
  await panel.getByRole('button', { name: 'Close panel' }).click();
  await expect(panel).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
});

test('at 390 px LiveKit’s connecting toast sits below the meeting tools, not on top of them', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await fakeApi(page, { isModerator: false });
  // A media server that accepts the upgrade and never answers keeps the call connecting (for 5 s).
  const join = await adaJoins();
  await page.goto(`/join?token=${encodeURIComponent(join.token)}&url=${encodeURIComponent(silentMedia.url)}`);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  const toolbar = page.getByRole('group', { name: 'Meeting tools' });
  const toast = page.locator('.lk-toast-connection-state');
  await expect(toast).toBeVisible();
  const [tools, shown] = [(await toolbar.boundingBox())!, (await toast.boundingBox())!];
  expect(shown.y).toBeGreaterThanOrEqual(tools.y + tools.height);
});
