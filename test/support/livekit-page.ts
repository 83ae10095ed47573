/**
 * A bare page that loads livekit-client (its UMD build, as `window.LivekitClient`), served on
 * loopback — a secure context for getUserMedia — and headless Chromium with fake devices: the
 * unchanged LiveKit browser client, without Convene's call UI, for the development media server's
 * own tests and its benchmark.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { AccessToken } from 'livekit-server-sdk';

const root = path.resolve(import.meta.dirname, '../..');

export async function serveLiveKitClientPage() {
  const umd = readFileSync(path.join(root, 'node_modules/livekit-client/dist/livekit-client.umd.js'));
  const server = http.createServer((req, res) => {
    if (req.url === '/lk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(umd);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><html><body><script src="/lk.js"></script></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Chromium with fake camera, microphone and screen, media allowed to play without a gesture. */
export function launchChromiumWithFakeDevices() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
      '--auto-accept-this-tab-capture',
      '--auto-select-desktop-capture-source=Entire screen',
    ],
  });
}

/**
 * A new page of `browser` on the livekit-client page (`pageUrl`), in `room` as `identity`, publishing
 * its fake camera and microphone as the call UI's Room does.
 */
export async function publishingPage({
  browser,
  pageUrl,
  media,
  room,
  identity,
}: {
  browser: Browser;
  pageUrl: string;
  media: { url: string; apiKey: string; apiSecret: string };
  room: string;
  identity: string;
}): Promise<Page> {
  const at = new AccessToken(media.apiKey, media.apiSecret, { identity });
  at.addGrant({ roomJoin: true, room });
  const page = await browser.newPage();
  await page.goto(pageUrl);
  await page.evaluate(
    async ({ url, jwt }) => {
      const lk = new (window as any).LivekitClient.Room({ adaptiveStream: true, dynacast: true });
      await lk.connect(url, jwt);
      await lk.localParticipant.enableCameraAndMicrophone();
    },
    { url: media.url, jwt: await at.toJwt() },
  );
  return page;
}
