import type { Page } from '@playwright/test';

/**
 * Publishes the page's camera and microphone over WHIP (RFC 9725), as any WHIP encoder does: the
 * SDP offer POSTed to `url` with the stream key as `Authorization: Bearer`, the answer applied when
 * accepted (201). Returns the status and the session's Location (DELETE it to stop).
 */
export function publishOverWhip(page: Page, target: { url: string; key: string }) {
  return page.evaluate(async ({ url, key }) => {
    const pc = new RTCPeerConnection();
    const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    for (const track of stream.getTracks()) pc.addTransceiver(track, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/sdp' },
      body: pc.localDescription!.sdp,
    });
    if (res.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });
    (window as unknown as { whipPeer: RTCPeerConnection }).whipPeer = pc;
    return { status: res.status, location: res.headers.get('location') };
  }, target);
}
