/**
 * Ingress on the development media server: WHIP served on this server's own port (`/w`), RTMP on a
 * port per ingress where Node listens and starts an ffmpeg only while a publisher streams. The Twirp
 * Ingress service creates and deletes through here.
 */
import { randomBytes } from 'node:crypto';
import {
  type CreateIngressRequest,
  IngressInfo,
  IngressInput,
  IngressState,
  IngressState_Status,
} from '@livekit/protocol';
import { newSid } from '../rtc/room-state';
import type { IngressContext } from './publisher';
import { ffmpegUnavailable } from '../egress/ffmpeg';
import { createRtmpListener, freePort } from './rtmp';
import { createWhipEndpoint } from './whip';

export function createIngressService(
  ctx: IngressContext & { ingresses: Map<string, IngressInfo>; host: string; httpUrl: () => string },
) {
  const { ingresses } = ctx;
  const whip = createWhipEndpoint(ctx, (key) => [...ingresses.values()].find((i) => i.streamKey === key && key));
  const rtmp = new Map<string, Awaited<ReturnType<typeof createRtmpListener>>>();

  return {
    /** CreateIngress: WHIP is served at once; RTMP needs ffmpeg, else LiveKit's error status. */
    async create(req: CreateIngressRequest): Promise<IngressInfo> {
      const isWhip = req.inputType === IngressInput.WHIP_INPUT;
      const info = new IngressInfo({
        ingressId: newSid('IN'),
        name: req.name,
        roomName: req.roomName,
        participantIdentity: req.participantIdentity,
        participantName: req.participantName,
        participantMetadata: req.participantMetadata,
        inputType: req.inputType,
        enableTranscoding: req.enableTranscoding,
        streamKey: randomBytes(12).toString('base64url'),
        reusable: true,
        state: new IngressState(),
      });
      if (isWhip) info.url = `${ctx.httpUrl()}/w`;
      else {
        const missing = ffmpegUnavailable();
        if (missing) {
          info.url = `rtmp://${ctx.host}:${await freePort()}/live`;
          info.state = new IngressState({ status: IngressState_Status.ENDPOINT_ERROR, error: missing });
        } else {
          const listener = await createRtmpListener(ctx, info, ctx.host);
          info.url = `rtmp://${ctx.host}:${listener.port}/live`;
          rtmp.set(info.ingressId, listener);
        }
      }
      ingresses.set(info.ingressId, info);
      return info;
    },
    delete(ingressId: string): IngressInfo | undefined {
      const info = ingresses.get(ingressId);
      if (!info) return undefined;
      ingresses.delete(ingressId);
      whip.endIngress(ingressId);
      rtmp.get(ingressId)?.close();
      rtmp.delete(ingressId);
      return info;
    },
    handleWhip: whip.handle,
    close() {
      whip.close();
      for (const listener of rtmp.values()) listener.close();
      rtmp.clear();
    },
  };
}
export type IngressService = ReturnType<typeof createIngressService>;
