/**
 * Connection quality for every participant: the development media server sends LiveKit's
 * ConnectionQualityUpdate every few seconds to each client, for itself and everyone it can see —
 * publishers rated from the loss and jitter of their media, listeners EXCELLENT — so the call UI's
 * indicator on every tile has a value. The rating itself is checked on made-up packet arrivals.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AudioFrame, AudioSource, LocalAudioTrack, Room, TrackPublishOptions, TrackSource } from '@livekit/rtc-node';
import { ConnectionQuality } from '@livekit/protocol';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { ArrivalMeter, rateConnection } from '@/media-server/sfu/quality';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { mediaToken } from '../support/rtc-node-media';
import { cleanUpWithin, until } from '../support/until';

describe('rating', () => {
  /** An interval of 100 audio packets, 20 ms apart, `lost` of them missing, arriving `wobbleMs` off their pace. */
  function interval(lost: number[], wobbleMs = 0) {
    const meter = new ArrivalMeter(48000);
    for (let i = 0; i < 100; i++) {
      if (lost.includes(i)) continue;
      meter.record((65500 + i) & 0xffff, i * 960, i * 20 + (i % 2 ? wobbleMs : 0)); // wraps past 65535
    }
    return meter.take();
  }

  it('rates loss and jitter as LiveKit does, across a sequence number wrap', () => {
    expect(interval([])).toMatchObject({ expected: 100, received: 100 });
    expect(rateConnection([interval([])])).toBe(ConnectionQuality.EXCELLENT);
    expect(rateConnection([interval([10, 20, 30, 40, 50])])).toBe(ConnectionQuality.GOOD);
    expect(rateConnection([interval(Array.from({ length: 20 }, (_, i) => i * 5 + 1))])).toBe(ConnectionQuality.POOR);
    expect(rateConnection([interval([], 60)])).toBe(ConnectionQuality.GOOD);
    // The worst track decides; no media is no sign of trouble.
    expect(rateConnection([interval([]), interval([10, 20, 30, 40, 50]), undefined])).toBe(ConnectionQuality.GOOD);
    expect(rateConnection([])).toBe(ConnectionQuality.EXCELLENT);
  });

  it('starts a new interval at each take', () => {
    const meter = new ArrivalMeter(48000);
    for (let i = 0; i < 10; i++) meter.record(i, i * 960, i * 20);
    meter.take();
    expect(meter.take()).toBeUndefined();
    for (let i = 12; i < 22; i++) meter.record(i, i * 960, i * 20); // 10 and 11 lost
    expect(meter.take()).toMatchObject({ expected: 12, received: 10 });
  });
});

describe('in a call', () => {
  let media: DevMediaServer | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanUpWithin('a connection-quality participant', cleanup);
    await media?.close();
  });

  it('a livekit-client page sees a quality for itself and for each remote participant', {
    timeout: 60_000,
  }, async () => {
    media = await startDevMediaServer({ departureTimeoutMs: 1000 });
    const server = media;
    const token = (identity: string) => mediaToken(server, 'quality', identity);
    // One remote publishes a microphone, one only listens.
    const singer = new Room();
    await singer.connect(media.url, await token('singer'), { autoSubscribe: false, dynacast: false });
    cleanups.push(() => singer.disconnect());
    const audio = new AudioSource(48000, 1);
    await singer.localParticipant!.publishTrack(
      LocalAudioTrack.createAudioTrack('sine', audio),
      new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
    );
    let singing = true;
    cleanups.push(async () => (singing = false));
    void (async () => {
      while (singing) await audio.captureFrame(new AudioFrame(new Int16Array(480).fill(1000), 48000, 1, 480));
    })();
    const listener = new Room();
    await listener.connect(media.url, await token('listener'), { autoSubscribe: true, dynacast: false });
    cleanups.push(() => listener.disconnect());

    const served = await serveLiveKitClientPage();
    cleanups.push(() => served.close());
    const browser = await launchChromiumWithFakeDevices();
    cleanups.push(() => browser.close());
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.evaluate(
      async ({ url, jwt }) => {
        const w = window as any;
        w.room = new w.LivekitClient.Room();
        await w.room.connect(url, jwt);
        await w.room.localParticipant.setMicrophoneEnabled(true);
      },
      { url: media.url, jwt: await token('page') },
    );
    const qualities = await until(
      async () => {
        const seen = await page.evaluate(() => {
          const room = (window as any).room;
          return Object.fromEntries(
            [room.localParticipant, ...room.remoteParticipants.values()].map((p: any) => [
              p.identity,
              p.connectionQuality as string,
            ]),
          );
        });
        return Object.keys(seen).length === 3 && Object.values(seen).every((q) => q !== 'unknown') ? seen : undefined;
      },
      'a quality for every participant on the page',
      20_000,
    );
    // Loopback loses nothing.
    expect(qualities).toEqual({ page: 'excellent', singer: 'excellent', listener: 'excellent' });
  });
});
