import { z } from 'zod';
import { IngressInputType, IngressStatus } from '@/lib/generated/prisma/enums';
import { displayName, externalId, named, resourceId, timestamp } from '@/lib/domain/shared.schemas';

/** Ingress endpoints (RTMP or WHIP in): request and response schemas. */
const inputType = z.enum(IngressInputType);

export const ingressCreateInput = z.object({
  roomId: resourceId,
  name: z.string().trim().min(1).max(100),
  inputType: inputType.default('RTMP'),
  participantIdentity: z.string().trim().min(1).max(100),
  participantName: displayName,
  createdByExternalId: externalId,
  enableTranscoding: z.boolean().default(true),
});

export const ingressResponse = named(
  'Ingress',
  'An ingress endpoint (RTMP or WHIP in). The stream key is the tenant’s credential for pushing.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    mediaIngressId: z.string(),
    name: z.string(),
    inputType,
    enableTranscoding: z.boolean(),
    participantIdentity: z.string(),
    participantName: z.string(),
    ingressUrl: z.string().nullable(),
    streamKey: z.string().nullable(),
    status: z.enum(IngressStatus),
    createdByExternalId: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type IngressResponse = z.output<typeof ingressResponse>;
