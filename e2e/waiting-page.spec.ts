import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { person, screenshots } from './support/call';
import { createTenant } from './support/tenant';
import { ACME_BRANDING, serveAcmeLogo } from './support/branding';

/**
 * The guest's waiting page with a real parked participant of a branded tenant: the room's name
 * (from the admission poll), the tenant's logo, name and colours, and the guest's own live camera
 * preview and microphone meter with their toggles; it passes axe, and continues into the meeting
 * when a host admits. Screenshots at 1280 and 390 px are attached (and saved for docs/hosted-ui.md
 * with DOCS_SCREENSHOTS=1).
 */

test.describe.configure({ timeout: 120_000 });

test('a parked guest sees the room’s name, the tenant’s branding and their own camera, and is let in', async ({
  browser,
}, info) => {
  const tenant = await createTenant('Waiting page', { branding: ACME_BRANDING });
  const api = (p: string, body: unknown) => tenant.api('POST', p, body);
  const room = await api('/api/v1/rooms', {
    name: 'Physics 101',
    createdByExternalId: 'teacher',
    enableWaitingRoom: true,
  });
  expect(room.status).toBe(201);
  await api(`/api/v1/rooms/${room.body.id}/join`, { externalUserId: 'teacher', displayName: 'Teacher', role: 'HOST' });
  const parked = await api(`/api/v1/rooms/${room.body.id}/join`, { externalUserId: 'ada', displayName: 'Ada' });
  expect(parked.body.waitingForApproval).toBe(true);

  const guest = await person(browser);
  await serveAcmeLogo(guest);
  await guest.goto(parked.body.admissionUrl);
  await expect(guest.getByTestId('waiting-waiting')).toContainText('Waiting to be let in');

  // The room's name and the tenant's branding.
  await expect(guest.getByTestId('waiting-room-name')).toHaveText('Physics 101', { timeout: 15_000 });
  const mark = guest.getByTestId('brand-mark');
  await expect(mark).toContainText('Acme Classroom');
  await expect(mark.locator('img')).toHaveAttribute('src', ACME_BRANDING.logoUrl);
  await expect(guest.getByTestId('hosted-shell')).toHaveCSS('background-color', 'rgb(15, 42, 29)');
  const cameraToggle = guest.getByRole('button', { name: 'Camera', exact: true });
  await expect(cameraToggle).toHaveAttribute('aria-pressed', 'true');
  await expect(cameraToggle).toHaveCSS('background-color', 'rgb(124, 45, 18)');

  // The live preview: frames of the fake camera, advancing; the microphone meter moves with the fake microphone's clicks.
  const preview = guest.getByTestId('waiting-preview');
  const frames = () =>
    preview.evaluate((v: HTMLVideoElement) => ({
      width: v.videoWidth,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
    }));
  await expect.poll(async () => (await frames()).width, { timeout: 15_000 }).toBeGreaterThan(0);
  const before = (await frames()).frames;
  await expect.poll(async () => (await frames()).frames, { timeout: 10_000 }).toBeGreaterThan(before + 10);
  const meter = guest.getByRole('meter', { name: 'Microphone level' });
  await expect
    .poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 10_000, intervals: [50] })
    .toBeGreaterThan(0);

  const { violations } = await new AxeBuilder({ page: guest })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
  await screenshots(guest, info, 'waiting-page', { fullPage: true });

  // Camera off: the preview goes and the camera is released; on again: back.
  await cameraToggle.click();
  await expect(cameraToggle).toHaveAttribute('aria-pressed', 'false');
  await expect(guest.getByText('Your camera is off')).toBeVisible();
  await expect(preview).toHaveCount(0);
  await cameraToggle.click();
  await expect.poll(async () => (await frames()).width, { timeout: 15_000 }).toBeGreaterThan(0);
  // Microphone off: the meter rests at 0.
  const micToggle = guest.getByRole('button', { name: 'Microphone', exact: true });
  await micToggle.click();
  await expect(micToggle).toHaveAttribute('aria-pressed', 'false');
  await expect(meter).toHaveAttribute('aria-valuenow', '0');

  // The host admits: the page continues to the pre-join screen.
  const approved = await api(`/api/v1/rooms/${room.body.id}/participants/${parked.body.participant.id}/approve`, {
    actingExternalUserId: 'teacher',
  });
  expect(approved.status).toBe(200);
  await expect(guest.getByRole('button', { name: 'Join meeting' })).toBeVisible({ timeout: 20_000 });
  // …which starts as the guest left things while waiting: camera on, microphone off.
  await expect(guest.locator('.lk-prejoin button[data-lk-source="microphone"]')).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(guest.locator('.lk-prejoin button[data-lk-source="camera"]')).toHaveAttribute('aria-pressed', 'true');
  await guest.context().close();
});
